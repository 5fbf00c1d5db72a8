/*
 * The few Markdown rules the export needs, kept apart so a property test can hold them: text
 * quoted verbatim must come back verbatim from any CommonMark reader, whatever it contains.
 */

/**
 * A fenced code block holding `text` exactly: the fence is one backtick longer than the longest
 * run of backticks inside (at least three), so no line of the text can close it early.
 */
export function fenced(text: string, language = ''): string {
  let longest = 0;
  for (const run of text.matchAll(/`+/g)) longest = Math.max(longest, run[0].length);
  const fence = '`'.repeat(Math.max(3, longest + 1));
  const body = text.endsWith('\n') ? text : `${text}\n`;
  return `${fence}${language}\n${body}${fence}`;
}

/**
 * Inline code holding `text` exactly (CommonMark code spans): delimited by one backtick more than
 * its longest backtick run, padded with a space when it starts or ends with a backtick or a space
 * that the reader would otherwise strip. Line breaks become spaces, as a code span shows them.
 */
export function inlineCode(text: string): string {
  const flat = text.replace(/\r\n|\r|\n/g, ' ');
  let longest = 0;
  for (const run of flat.matchAll(/`+/g)) longest = Math.max(longest, run[0].length);
  const ticks = '`'.repeat(longest + 1);
  const pad = /^[` ]|[` ]$/.test(flat) && flat.trim() !== '' ? ' ' : '';
  return `${ticks}${pad}${flat}${pad}${ticks}`;
}

/** Text with the characters HTML would read as markup escaped (a `<summary>`'s label). */
export function htmlText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** A time as people read it in a transcript, in UTC so the same cut always gives the same text. */
export function utcMinute(ms: number): string {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}
