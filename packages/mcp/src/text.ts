// eslint-disable-next-line no-control-regex -- the host marks matches with U+0002 … U+0003
const MATCH = /\u0002([^\u0003]*)\u0003/g;

/** The host's snippet markers (U+0002 … U+0003) as `[…]`: no text an agent reads carries them. */
export function bracketMatches(snippet: string): string {
  return snippet.replace(MATCH, (_m, text: string) => `[${text}]`);
}

/** One line of at most `max` characters: a snippet's newlines cannot pass for another hit. */
export function flatLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? flat.slice(0, max - 1) + '…' : flat;
}
