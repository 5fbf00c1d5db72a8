/** Longest title kept, in characters; longer text is cut at a word boundary with an ellipsis. */
export const TITLE_MAX = 80;

/**
 * A short, one-line title from free text (a prompt, a summary): whitespace collapsed, at most
 * {@link TITLE_MAX} characters. Returns undefined for text with nothing printable.
 */
export function shortTitle(text: string): string | undefined {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length === 0) return undefined;
  if (flat.length <= TITLE_MAX) return flat;
  const cut = flat.slice(0, TITLE_MAX - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > TITLE_MAX / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
