import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '@strand/test-support';
import { armExpiry, MAX_TIMER_MS } from './expiry-timer.js';

describe('armExpiry', () => {
  it('expires exactly once, at the expiry and not a millisecond before, however far it is (steps of at most MAX_TIMER_MS)', () => {
    fc.assert(
      fc.property(
        fc.nat(5 * MAX_TIMER_MS),
        fc.array(fc.integer({ min: 1, max: MAX_TIMER_MS }), { maxLength: 8 }),
        (far, advances) => {
          const clock = new ManualClock();
          let expired = 0;
          armExpiry(far, clock.now, clock, () => expired++);
          if (far === 0) {
            expect([expired, clock.pending]).toEqual([1, 0]);
            return;
          }
          for (const by of advances) {
            clock.advance(Math.min(by, far - 1 - clock.now()));
            expect(expired).toBe(0);
          }
          clock.advance(far - 1 - clock.now());
          expect(expired).toBe(0);
          expect(clock.pending).toBe(1);
          clock.advance(1);
          expect(expired).toBe(1);
          clock.advance(10 * MAX_TIMER_MS);
          expect([expired, clock.pending]).toEqual([1, 0]);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('never expires once cancelled, and disarms its timer', () => {
    const clock = new ManualClock();
    let expired = false;
    const cancel = armExpiry(1_000, clock.now, clock, () => (expired = true));
    clock.advance(999);
    cancel();
    expect(clock.pending).toBe(0);
    clock.advance(1_000);
    expect(expired).toBe(false);
  });
});
