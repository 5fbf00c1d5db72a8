import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backoffDelay, DEFAULT_BACKOFF } from './backoff.js';

describe('backoffDelay', () => {
  const policy = { initialMs: 100, maxMs: 5_000, jitter: 0.5 };

  it('doubles per attempt until the cap, without jitter at random() = 0', () => {
    expect([0, 1, 2, 3, 6, 7, 40].map((attempt) => backoffDelay(attempt, policy, () => 0))).toEqual([
      100, 200, 400, 800, 5_000, 5_000, 5_000,
    ]);
  });

  it('jitter takes off up to its fraction of the delay', () => {
    expect(backoffDelay(2, policy, () => 0.999_999)).toBeCloseTo(200, 0);
    expect(backoffDelay(2, { ...policy, jitter: 1 }, () => 0.5)).toBe(200);
  });

  it('always lies in [cap·(1 − jitter), cap] and never grows past maxMs', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: 10_000 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (attempt, r) => {
          const delay = backoffDelay(attempt, DEFAULT_BACKOFF, () => r);
          const capped = Math.min(
            DEFAULT_BACKOFF.maxMs,
            DEFAULT_BACKOFF.initialMs * 2 ** Math.min(attempt, 52),
          );
          expect(delay).toBeLessThanOrEqual(capped);
          expect(delay).toBeGreaterThanOrEqual(capped * (1 - DEFAULT_BACKOFF.jitter));
        },
      ),
    );
  });
});
