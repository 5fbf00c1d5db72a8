import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { batchGate } from './batch-gate.js';

/** One turn of the event loop: every continuation already queued has run. */
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('batchGate', () => {
  it('lets callers through only in full batches of `size`, and the rest once `total` have come', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 0, max: 16 }),
        async (size, total) => {
          const pass = batchGate(size, total);
          let through = 0;
          for (let n = 1; n <= total; n++) {
            void pass().then(() => through++);
            await turn();
            expect(through).toBe(n === total ? total : n - (n % size));
          }
        },
      ),
    );
  });

  it('refuses a batch size that is not a positive integer', () => {
    expect(() => batchGate(0, 4)).toThrow(RangeError);
    expect(() => batchGate(1.5, 4)).toThrow(RangeError);
  });
});
