import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderClaudeTranscript } from './claude-code/transcript.js';
import { renderCodexRollout } from './codex/rollout.js';
import { renderGeminiChat } from './gemini/chat.js';
import {
  exportMarkerOfLine,
  MARKER_SLOT,
  readExportMarker,
  sealExport,
  STRAND_EXPORT_MARKER,
  strandExportOf,
} from './marker.js';
import { twoToolTurns } from './test-document.js';

/** A record's text as a harness writes it: one JSON object, any strings (no raw newline). */
const record = fc
  .dictionary(fc.string({ maxLength: 6 }), fc.oneof(fc.string(), fc.integer(), fc.boolean()), {
    maxKeys: 4,
  })
  .map((r) => JSON.stringify(r));
const origin = fc.record({
  origin: fc.string({ minLength: 1, maxLength: 20 }),
  cut: fc.nat(),
  running: fc.boolean(),
});
const utf8 = (text: string): number => new TextEncoder().encode(text).length;

describe("Strand's export marker", () => {
  it('reads back origin, cut and the exported bytes from any export, however the harness continued it', () => {
    fc.assert(
      fc.property(
        origin,
        fc.array(record, { maxLength: 6 }),
        fc.array(record, { maxLength: 4 }),
        (from, rest, appended) => {
          const first = JSON.stringify({ type: 'head', [STRAND_EXPORT_MARKER]: MARKER_SLOT });
          const text = sealExport([first, ...rest], from);
          const continued = text + appended.map((l) => `${l}\n`).join('');
          const read = readExportMarker(continued)!;
          const firstLine = text.slice(0, text.indexOf('\n') + 1);
          expect(read).toEqual({
            origin: from.origin,
            cut: from.cut,
            bytes: utf8(text) - utf8(firstLine),
            untouched: appended.length === 0,
          });
          // The export ends `bytes` after the first line: what follows is exactly what was appended.
          const bytes = Buffer.from(continued);
          const end = utf8(firstLine) + read.bytes!;
          expect(bytes.subarray(end).toString()).toBe(appended.map((l) => `${l}\n`).join(''));
          // The CLI's overwrite rule is unchanged: only the untouched file is Strand's export.
          expect(strandExportOf(continued) !== undefined).toBe(appended.length === 0);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("reads each harness writer's export, untouched and continued", () => {
    const document = twoToolTurns('anthropic', 'claude-sonnet-4-5', 'Bash', '{"command":"ls"}');
    for (const text of [
      renderClaudeTranscript(document).text,
      renderCodexRollout(document).text,
      renderGeminiChat(document).text,
    ]) {
      const firstLine = text.slice(0, text.indexOf('\n'));
      const bytes = utf8(text) - utf8(firstLine) - 1;
      expect(readExportMarker(text)).toEqual({ origin: 's-export-1', cut: 14, bytes, untouched: true });
      expect(readExportMarker(`${text}{"type":"user"}\n`)).toEqual({
        origin: 's-export-1',
        cut: 14,
        bytes,
        untouched: false,
      });
      expect(exportMarkerOfLine(firstLine)).toEqual({ origin: 's-export-1', cut: 14, bytes });
    }
  });

  it('reads nothing from a file without a marker, or with one that is not of its shape', () => {
    expect(readExportMarker('')).toBeUndefined();
    expect(readExportMarker('{"type":"user"}\n')).toBeUndefined();
    expect(readExportMarker('not json\n')).toBeUndefined();
    expect(exportMarkerOfLine('{"strandExport":null}')).toBeUndefined();
    expect(exportMarkerOfLine('{"strandExport":{"origin":"","cut":1}}')).toBeUndefined();
    expect(exportMarkerOfLine('{"strandExport":{"origin":"s","cut":-1}}')).toBeUndefined();
    expect(exportMarkerOfLine('["strandExport"]')).toBeUndefined();
    // An export written before `bytes` existed: origin and cut, no end.
    expect(readExportMarker('{"strandExport":{"origin":"s","cut":3,"digest":"x"}}\n{}\n')).toEqual({
      origin: 's',
      cut: 3,
      untouched: false,
    });
  });
});
