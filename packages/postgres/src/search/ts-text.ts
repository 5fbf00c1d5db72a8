import { queryPhrases, tokenize } from '@strand/search/kit';

/*
 * What PostgreSQL's text search parser is given, on both sides of a match. Text and query are
 * first tokenized and folded in JavaScript by the same tokenizer the snippet highlighter uses
 * (runs of letters, numbers and marks; lower-cased, diacritics stripped), then joined with single
 * spaces. So the parser sees only plain words and never applies its own token classes (e-mail,
 * URL, file path, `foo-bar` compounds), which would make `ocelot` unfindable in `src/ocelot.ts`;
 * and case and accent folding is the same as on SQLite without needing the `unaccent` extension.
 */

/** The text to hand `strand_search_tsv` (ts-functions.ts) for an event's indexed text. */
export function tsvectorSource(text: string): string {
  return tokenize(text)
    .map((token) => token.folded)
    .join(' ');
}

/**
 * One string per query term for `strand_search_phrase` (ts-functions.ts), ANDed: a term the tokenizer
 * splits (`foo-bar`) is a phrase of adjacent words. Terms with no token (`-`, `&`) are dropped,
 * as FTS5 ignores an empty phrase in an AND.
 */
export function tsqueryPieces(terms: readonly string[]): string[] {
  return queryPhrases(terms).map((phrase) => phrase.join(' '));
}

/**
 * The statement that turns `count` pieces (parameters $1…$count) into one tsquery, returned as
 * text. Only placeholders are generated here; user text is never SQL and never tsquery syntax —
 * `strand_search_phrase` reads it as plain words (`phraseto_tsquery`).
 */
export function tsquerySql(count: number): string {
  const parts = Array.from({ length: count }, (_, i) => `strand_search_phrase($${i + 1})`);
  return `SELECT (${parts.join(' && ')})::text AS q`;
}
