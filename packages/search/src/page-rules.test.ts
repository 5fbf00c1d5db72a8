import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeSnapshotEntries, encodeSnapshotEntries } from './page-rules.js';
import type { RankedEntry } from './ranked-window.js';

// The seed is the run's (vitest.config.ts: printed, replayed from STRAND_TEST_SEED).
const entry: fc.Arbitrary<RankedEntry> = fc
  .record({
    sid: fc.nat(),
    score: fc.double({ noNaN: true, noDefaultInfinity: true }),
    hits: fc.array(fc.nat(), { maxLength: 3 }),
    label: fc.boolean(),
  })
  .map(({ sid, score, hits, label }) => (label ? { sid, score, hits, label: true } : { sid, score, hits }));

describe('snapshot entry codec', () => {
  it('round-trips entries, keeping which ones are label matches', () => {
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 20 }), (entries) => {
        // JSON has no -0: compare with it folded, as a stored snapshot holds it.
        const folded = entries.map((e) => ({ ...e, score: e.score === 0 ? 0 : e.score }));
        expect(decodeSnapshotEntries(encodeSnapshotEntries(entries))).toEqual(folded);
      }),
    );
  });

  it('reads a chunk written before labels existed (three-element entries) as event matches', () => {
    expect(decodeSnapshotEntries('[[7,1.5,[3,4]]]')).toEqual([{ sid: 7, score: 1.5, hits: [3, 4] }]);
  });
});
