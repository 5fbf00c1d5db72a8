import { describe, expect, it } from 'vitest';
import { mapBounded } from './bounded-map.js';

const tick = (ms = 1): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('mapBounded', () => {
  it('keeps input order and never has more than `limit` tasks in flight, reaching the limit when there is work', async () => {
    let inFlight = 0;
    let peak = 0;
    const out = await mapBounded([5, 1, 4, 2, 3, 6, 1, 2, 7, 3], 4, undefined, async (n) => {
      peak = Math.max(peak, ++inFlight);
      await tick(n);
      inFlight--;
      return n * 10;
    });
    expect(out).toEqual([50, 10, 40, 20, 30, 60, 10, 20, 70, 30]);
    expect(peak).toBe(4);
  });

  it('rejects with the first task failure and starts nothing after it', async () => {
    const started: number[] = [];
    const run = mapBounded([1, 2, 3, 4, 5, 6], 2, undefined, async (n) => {
      started.push(n);
      if (n === 2) throw new Error('two');
      await tick(10);
      return n;
    });
    await expect(run).rejects.toThrow('two');
    await tick(20);
    expect(started).toEqual([1, 2]);
  });

  it('rejects with CANCELLED as soon as the signal aborts, without waiting for tasks in flight', async () => {
    const controller = new AbortController();
    let finished = 0;
    const run = mapBounded([1, 2, 3], 3, controller.signal, async () => {
      await tick(50);
      finished++;
    });
    controller.abort();
    await expect(run).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(finished).toBe(0);
  });

  it('refuses a limit that is not a positive integer, and an already-aborted signal', async () => {
    await expect(mapBounded([1], 0, undefined, () => Promise.resolve(1))).rejects.toThrow(RangeError);
    await expect(mapBounded([1], 1.5, undefined, () => Promise.resolve(1))).rejects.toThrow(RangeError);
    await expect(mapBounded([1], 4, AbortSignal.abort(), () => Promise.resolve(1))).rejects.toMatchObject({
      code: 'CANCELLED',
    });
    expect(await mapBounded([], 4, undefined, () => Promise.resolve(1))).toEqual([]);
  });
});
