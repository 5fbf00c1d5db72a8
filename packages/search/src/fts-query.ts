import { SearchIndexError } from './errors.js';

/** Longest accepted query, in UTF-16 units: a search box, not a document. */
export const MAX_QUERY_CHARS = 1_000;
/** Most whitespace-separated terms in one query (each is one FTS5 phrase to evaluate). */
export const MAX_QUERY_TERMS = 32;

/**
 * Turns user text into an FTS5 MATCH expression that matches it *literally*.
 *
 * The text is cut into terms (`queryTerms`: words, and `"quoted words"` as one term) and every term
 * becomes one FTS5 string (`"…"`), so nothing the user types is syntax: `OR`, `NOT`, `NEAR(…)`,
 * `*`, `^`, `-`, `+`, parentheses and `column:` filters are data. An FTS5 string is a phrase, so a
 * quoted term matches its words adjacent and in order; terms are joined by FTS5's implicit AND: an
 * event matches when it contains every term. A word the tokenizer splits (`foo-bar`, `col:val`) is
 * a phrase too. A term with no token characters (`-`) is an empty phrase, which FTS5 ignores in an
 * AND.
 *
 * Throws `SEARCH_INVALID_QUERY` for an empty, whitespace-only or oversized query, or one
 * containing NUL.
 */
export function literalMatchExpression(query: string): string {
  return literalQuery(query).expression;
}

export interface LiteralQuery {
  /** The FTS5 MATCH expression. */
  readonly expression: string;
  /** The terms (`queryTerms`), as typed: a quoted term without its quotes. */
  readonly terms: readonly string[];
}

/** `literalMatchExpression` plus the terms it quoted (snippets highlight them). */
export function literalQuery(query: string): LiteralQuery {
  if (typeof query !== 'string')
    throw new SearchIndexError('SEARCH_INVALID_QUERY', 'a search query must be a string');
  if (query.length > MAX_QUERY_CHARS) {
    throw new SearchIndexError(
      'SEARCH_INVALID_QUERY',
      `a search query is at most ${MAX_QUERY_CHARS} characters, got ${query.length}`,
    );
  }
  // Neither FTS5's query parser nor PostgreSQL's text type accepts NUL: without this check the
  // store's raw message would surface as a storage failure for what is the caller's mistake.
  if (query.includes('\u0000'))
    throw new SearchIndexError('SEARCH_INVALID_QUERY', 'a search query cannot contain NUL (U+0000)');
  const terms = queryTerms(query);
  if (terms.length === 0)
    throw new SearchIndexError('SEARCH_INVALID_QUERY', 'an empty or whitespace-only search query is refused');
  if (terms.length > MAX_QUERY_TERMS) {
    throw new SearchIndexError(
      'SEARCH_INVALID_QUERY',
      `a search query has at most ${MAX_QUERY_TERMS} terms, got ${terms.length}`,
    );
  }
  // `queryTerms` leaves no `"` in a term; the doubling is kept so the expression stays literal
  // whatever a future splitter lets through.
  return { expression: terms.map((term) => `"${term.replaceAll('"', '""')}"`).join(' '), terms };
}

/**
 * Cuts a query into terms: outside quotes, each whitespace-separated word is a term; the text
 * between a `"` and the next `"` is one term (a phrase), its inner whitespace collapsed to single
 * spaces. A quote left open runs to the end of the query, so a phrase being typed already narrows
 * (search as you type). Quote characters are never part of a term; an empty phrase (`""`) is no
 * term. Pure, never throws.
 */
export function queryTerms(query: string): string[] {
  const terms: string[] = [];
  const parts = query.split('"');
  parts.forEach((part, i) => {
    if (i % 2 === 1) {
      const phrase = part.trim().split(/\s+/u).join(' ');
      if (phrase.length > 0) terms.push(phrase);
    } else {
      for (const word of part.split(/\s+/u)) if (word.length > 0) terms.push(word);
    }
  });
  return terms;
}
