import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { terminalSegments } from './terminal-segments.js';

/** ESC or the one-byte CSI: the characters a terminal starts an escape with. */
const hasEscape = (text: string): boolean => text.includes('\u001b') || text.includes('\u009b');

describe('terminalSegments', () => {
  it('maps colour and style escapes to styled runs of the text', () => {
    expect(terminalSegments('\u001b[2mCompacted (ctrl+o to see full summary)\u001b[22m')).toEqual([
      { text: 'Compacted (ctrl+o to see full summary)', dim: true },
    ]);
    expect(
      terminalSegments(
        'ok \u001b[1;31mFAIL\u001b[0m \u001b[38;5;208morange\u001b[39m \u001b[4;9mgone\u001b[0m',
      ),
    ).toEqual([
      { text: 'ok ' },
      { text: 'FAIL', color: 'rgb(187, 0, 0)', bold: true },
      { text: ' ' },
      { text: 'orange', color: 'rgb(255, 135, 0)' },
      { text: ' ' },
      { text: 'gone', underline: true, strikethrough: true },
    ]);
    expect(terminalSegments('\u001b[38;2;10;20;30;44mtrue\u001b[0m')).toEqual([
      { text: 'true', color: 'rgb(10, 20, 30)', background: 'rgb(0, 0, 187)' },
    ]);
  });

  it('drops cursor movement and escapes it does not draw (hyperlinks), keeping their text', () => {
    expect(
      terminalSegments('\u001b[2K\u001b[1Gdone \u001b]8;;https://x.test\u0007link\u001b]8;;\u0007'),
    ).toEqual([{ text: 'done link' }]);
  });

  it('never yields an escape character, and text without escapes passes whole (property)', () => {
    const piece = fc.oneof(
      fc.string({ maxLength: 8 }),
      fc.constantFrom(
        '\u001b[31m',
        '\u001b[0m',
        '\u001b[1;4m',
        '\u001b[38;5;99m',
        '\u001b[2K',
        '\u001b',
        '\u009b',
        '\u001b]8;;u\u0007',
      ),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const segments = terminalSegments(pieces.join(''));
        const text = segments.map((s) => s.text).join('');
        expect(hasEscape(text)).toBe(false);
        for (const segment of segments) expect(segment.text.length).toBeGreaterThan(0);
        // Text without escapes passes through whole.
        if (!pieces.some(hasEscape)) expect(text).toBe(pieces.join(''));
      }),
      { numRuns: 300 },
    );
  });
});
