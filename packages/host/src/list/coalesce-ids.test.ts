import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { coalesceIds } from './coalesce-ids.js';

describe('coalesceIds', () => {
  it('sends every id once, first-seen order, in non-empty frames of at most the bound', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g'), { maxLength: 40 }),
        fc.integer({ min: 1, max: 5 }),
        (ids, max) => {
          const frames = coalesceIds(ids, max);
          const distinct = [...new Set(ids)];
          expect(frames.flat()).toEqual(distinct);
          for (const frame of frames) {
            expect(frame.length).toBeGreaterThan(0);
            expect(frame.length).toBeLessThanOrEqual(max);
          }
          // As few frames as the bound allows: only the last may be short.
          expect(frames.length).toBe(Math.ceil(distinct.length / max));
        },
      ),
    );
  });

  it('refuses a bound that is not a positive integer', () => {
    expect(() => coalesceIds(['a'], 0)).toThrow(RangeError);
  });
});
