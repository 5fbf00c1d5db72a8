/**
 * A JavaScript approximation of the index's tokenizer (`unicode61 remove_diacritics 2`): tokens are
 * runs of letters, numbers, marks and private-use characters; folding lowercases and strips
 * diacritics. Used only to place highlights in snippets — matching itself is FTS5's; where the two
 * disagree, the snippet falls back to FTS5's own `snippet()`.
 */
const TOKEN = /[\p{L}\p{N}\p{M}\p{Co}]+/gu;
const MARKS = /\p{M}/gu;

export interface TextToken {
  readonly start: number;
  readonly end: number;
  readonly folded: string;
}

// eslint-disable-next-line no-control-regex -- the ASCII range, for the fast path
const ASCII = /^[\u0000-\u007f]*$/;

export function foldToken(token: string): string {
  // Most text is ASCII: nothing to decompose.
  if (ASCII.test(token)) return token.toLowerCase();
  return token.normalize('NFD').replace(MARKS, '').toLowerCase();
}

export function tokenize(text: string): TextToken[] {
  const tokens: TextToken[] = [];
  for (const match of text.matchAll(TOKEN))
    tokens.push({ start: match.index, end: match.index + match[0].length, folded: foldToken(match[0]) });
  return tokens;
}

/** The folded tokens of each query term: a term is a phrase of one or more tokens (`foo-bar` → foo, bar). */
export function queryPhrases(terms: readonly string[]): string[][] {
  return terms.map((term) => tokenize(term).map((t) => t.folded)).filter((phrase) => phrase.length > 0);
}
