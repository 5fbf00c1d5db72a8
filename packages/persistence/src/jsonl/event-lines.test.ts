import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '@strand/session';
import { eventInput } from '@strand/test-support';
import { encodeEventLines, parseEventBlock } from './event-lines.js';

/** Events as a session numbers them from `firstSeq`: any core or unknown type, strings over all code units. */
const numbered = (firstSeq: number): fc.Arbitrary<SessionEvent[]> =>
  fc
    .array(eventInput(), { maxLength: 12 })
    .map((inputs) => inputs.map((input, i) => ({ ...input, seq: firstSeq + i }) as SessionEvent));

describe('event lines', () => {
  it('encode as one JSON line per event, each exactly as JSON.stringify writes it, in UTF-8', () => {
    fc.assert(
      fc.property(numbered(0), (events) => {
        const expected = events.map((e) => JSON.stringify(e) + '\n').join('');
        const bytes = encodeEventLines(events);
        expect(bytes.equals(Buffer.from(expected, 'utf8'))).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('decode back to the same events, from any first seq', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 0, max: 1_000_000 })
          .chain((first) => numbered(first).map((events) => ({ first, events }))),
        ({ first, events }) => {
          const lines = encodeEventLines(events);
          // The decoder takes the block with one spare byte before it (see `parseEventBlock`).
          const block = Buffer.concat([Buffer.from([0]), lines]);
          if (events.length === 0) {
            expect(lines.length).toBe(0);
            return;
          }
          expect(parseEventBlock(block, first, events.length)).toEqual(
            JSON.parse(JSON.stringify(events)) as unknown,
          );
        },
      ),
      { numRuns: 200 },
    );
  });
});
