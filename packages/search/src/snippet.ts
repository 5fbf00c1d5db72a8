/** Opens a matched term in a snippet (U+0002, START OF TEXT). Never occurs in indexed text. */
export const HIGHLIGHT_START = '\u0002';
/** Closes a matched term in a snippet (U+0003, END OF TEXT). Never occurs in indexed text. */
export const HIGHLIGHT_END = '\u0003';
/** The ellipsis marking text cut from either side of a snippet. */
export const SNIPPET_ELLIPSIS = '…';
/** Upper bound of a snippet's length in UTF-16 units, markers and ellipses included. */
export const SNIPPET_MAX_CHARS = 200;

// eslint-disable-next-line no-control-regex -- the markers are control characters on purpose
const RESERVED = /[\u0000\u0002\u0003]/g;

/**
 * Indexed text with the highlight markers (and NUL) replaced by U+FFFD, so a marker in a snippet is
 * always one the index inserted. The characters are separators for the tokenizer either way, so
 * matching is unchanged.
 */
export function sanitizeIndexedText(text: string): string {
  return text.replace(RESERVED, '\uFFFD');
}

/**
 * Cuts an FTS5 snippet to at most `max` UTF-16 units around its first highlight, keeping markers
 * balanced (a cut highlight is closed) and surrogate pairs whole. `raw` uses the module's markers.
 */
export function boundSnippet(raw: string, max: number = SNIPPET_MAX_CHARS): string {
  if (raw.length <= max) return raw;
  // Room for an ellipsis on each side and a closing marker.
  const budget = max - 2 * SNIPPET_ELLIPSIS.length - HIGHLIGHT_END.length;
  const first = raw.indexOf(HIGHLIGHT_START);
  // Start a little before the first highlight so it has some left context.
  let start = first <= 0 ? 0 : Math.max(0, Math.min(first - Math.floor(budget / 4), raw.length - budget));
  if (start > 0 && isLowSurrogate(raw.charCodeAt(start))) start++;
  // Never start inside a highlight: move back to its opening marker.
  const lastOpen = raw.lastIndexOf(HIGHLIGHT_START, start);
  const lastClose = raw.lastIndexOf(HIGHLIGHT_END, start - 1);
  if (start > 0 && lastOpen >= 0 && lastOpen > lastClose && lastOpen < start) start = lastOpen;
  let end = Math.min(raw.length, start + budget);
  if (end < raw.length && isLowSurrogate(raw.charCodeAt(end))) end--;
  let body = raw.slice(start, end);
  if (body.lastIndexOf(HIGHLIGHT_START) > body.lastIndexOf(HIGHLIGHT_END)) body += HIGHLIGHT_END;
  const lead = start > 0 && !raw.startsWith(SNIPPET_ELLIPSIS, start) ? SNIPPET_ELLIPSIS : '';
  const tail = end < raw.length ? SNIPPET_ELLIPSIS : '';
  return lead + body + tail;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
