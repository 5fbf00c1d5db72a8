import { truncate } from '@strand/transcript';

/**
 * A message that is one paragraph of plain words (letters, digits, spaces and `.,;:?!()'`; no
 * line break, no Markdown, nothing an autolink starts from) as the HTML `markdownHtml` gives it —
 * `<p>…</p>` and a line end — without parsing it: most prose is such a paragraph, and Markdown
 * parsing was a third of an HTML export's time. Undefined for any other text (it goes through
 * `markdownHtml`). A property test holds the two to the same bytes (`html-text.test.ts`).
 */
export function plainParagraphHtml(text: string): string | undefined {
  // A first letter: no indented code, list number, heading or quote.
  if (!PLAIN.test(text) || WWW.test(text)) return undefined;
  return `<p>${text.includes("'") ? text.replace(APOSTROPHE, '&#39;') : text}</p>\n`;
}

const PLAIN = /^[A-Za-z][A-Za-z0-9 .,;:?!()']*$/;
/** GFM links a bare `www.` address. */
const WWW = /www\./i;
const APOSTROPHE = /'/g;

/**
 * A tool call's arguments on one line, each run of white space as one space, cut at `max`
 * characters (`…` when cut): `truncate(args.replace(/\s+/g, ' '), max)`, reading only as much of
 * the arguments as the cut needs — a prefix collapses to a prefix of the whole collapsed (a run cut
 * at the prefix's end is still one space). Arguments run to kilobytes; the preview is one line.
 */
export function argumentsPreview(args: string, max: number): string {
  for (let length = 2 * max; length < args.length; length *= 2) {
    const collapsed = args.slice(0, length).replace(WHITE_SPACE, ' ');
    if (collapsed.length > max) return `${collapsed.slice(0, max)}…`;
  }
  return truncate(args.replace(WHITE_SPACE, ' '), max);
}

const WHITE_SPACE = /\s+/g;
