import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { standsForListing } from './stamps.js';

/**
 * A ctime as a file system with sub-second times gives it: milliseconds and a fraction, not whole
 * seconds. A few nanoseconds past a second are lost in a double of milliseconds (its step near 1e12
 * is ~0.1 µs): such a time reads as whole seconds and is rightly given the coarse granule (the
 * longer wait), so it is not one of these.
 */
const fineCtime = fc
  .tuple(fc.integer({ min: 1_000_000_000, max: 2_000_000_000 }), fc.integer({ min: 1, max: 999_999_999 }))
  .map(([seconds, nanos]) => seconds * 1000 + nanos / 1e6)
  .filter((ms) => ms % 1000 !== 0);
/** A ctime as a file system keeping whole seconds gives it. */
const wholeSecondCtime = fc.integer({ min: 1_000_000_000, max: 2_000_000_000 }).map((s) => s * 1000);

describe('standsForListing: a folder stat stands for its listing only a timestamp granule after its last change', () => {
  it('with sub-second times, a run started at least 100 ms after the change may trust it, an earlier one not', () => {
    fc.assert(
      fc.property(fineCtime, fc.integer({ min: 0, max: 10_000_000 }), (ctimeMs, after) => {
        expect(standsForListing(ctimeMs, ctimeMs + after)).toBe(after >= 100);
      }),
    );
  });

  it('with whole-second times (FAT keeps 2 s), only a run started 2 s after the change may trust it', () => {
    fc.assert(
      fc.property(wholeSecondCtime, fc.integer({ min: 0, max: 10_000_000 }), (ctimeMs, after) => {
        expect(standsForListing(ctimeMs, ctimeMs + after)).toBe(after >= 2_000);
      }),
    );
  });

  it('a change dated after the run started (a clock behind the file system) is never trusted', () => {
    fc.assert(
      fc.property(
        fc.oneof(fineCtime, wholeSecondCtime),
        fc.integer({ min: 1, max: 10_000_000 }),
        (ctimeMs, before) => {
          expect(standsForListing(ctimeMs, ctimeMs - before)).toBe(false);
        },
      ),
    );
  });
});
