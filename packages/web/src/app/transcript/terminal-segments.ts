import Anser from 'anser';
import { plainTerminalText } from '@strand/session';

/** A run of terminal text in one style: what a terminal would draw for it. */
export interface TerminalSegment {
  readonly text: string;
  /** CSS colours (`rgb(…)`), the terminal's palette as anser gives it. */
  readonly color?: string;
  readonly background?: string;
  readonly bold?: true;
  readonly dim?: true;
  readonly italic?: true;
  readonly underline?: true;
  readonly strikethrough?: true;
}

// Left after anser's pass: escapes it does not interpret (OSC hyperlinks, a lone ESC or CSI byte).
// eslint-disable-next-line no-control-regex -- these are the characters removed
const STRAY_ESCAPES = /[\u001b\u009b]/g;

/**
 * Terminal output (escapes and all, as a harness logged it) as styled runs of plain text. anser
 * reads the colour and style escapes (SGR: the 16 colours, the 256 palette, true colour, bold,
 * dim, italic, underline, strikethrough, reverse) and drops cursor movement; whatever escape is
 * left is removed, so no run ever holds an escape character. The runs are data: the component
 * draws them as text in spans, never as HTML.
 */
export function terminalSegments(text: string): TerminalSegment[] {
  const segments: TerminalSegment[] = [];
  for (const entry of Anser.ansiToJson(text, { json: true, remove_empty: true })) {
    const plain = plainTerminalText(entry.content).replace(STRAY_ESCAPES, '');
    if (plain.length === 0) continue;
    const segment: { -readonly [K in keyof TerminalSegment]: TerminalSegment[K] } = { text: plain };
    if (entry.fg) segment.color = `rgb(${entry.fg})`;
    if (entry.bg) segment.background = `rgb(${entry.bg})`;
    for (const decoration of entry.decorations) {
      if (decoration === 'bold' || decoration === 'dim' || decoration === 'italic')
        segment[decoration] = true;
      else if (decoration === 'underline' || decoration === 'strikethrough') segment[decoration] = true;
    }
    segments.push(segment);
  }
  return segments;
}

/** True when a run carries any style (plain output draws as before, without a terminal's look). */
export const isStyled = (segment: TerminalSegment): boolean => Object.keys(segment).length > 1;
