import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mapBounded } from './bounded-map.js';

/** A task held until the test ends it: the order tasks finish in is the test's, not a clock's. */
interface Held {
  readonly item: number;
  readonly done: Promise<void>;
  end(): void;
}

function held(item: number): Held {
  let end!: () => void;
  const done = new Promise<void>((resolve) => (end = resolve));
  return { item, done, end };
}

/** One turn of the event loop: every continuation already queued has run. */
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('mapBounded', () => {
  it('keeps input order and never has more than `limit` tasks in flight, reaching the limit when there is work, whatever order they finish in', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer(), { maxLength: 12 }),
        fc.integer({ min: 1, max: 5 }),
        fc.array(fc.nat(), { minLength: 12, maxLength: 12 }),
        async (items, limit, picks) => {
          const running: Held[] = [];
          let peak = 0;
          const run = mapBounded(items, limit, undefined, async (item) => {
            const task = held(item);
            running.push(task);
            peak = Math.max(peak, running.length);
            await task.done;
            return item * 10;
          });
          for (const pick of picks) {
            await turn();
            // Ending the picked task is what frees its slot for the next one.
            running.splice(pick % Math.max(running.length, 1), 1)[0]?.end();
          }
          expect(await run).toEqual(items.map((item) => item * 10));
          expect(peak).toBe(Math.min(limit, items.length));
        },
      ),
    );
  });

  it('rejects with the first task failure and starts nothing after it, even once the others end', async () => {
    const started: number[] = [];
    const tasks: Held[] = [];
    const run = mapBounded([1, 2, 3, 4, 5, 6], 2, undefined, async (n) => {
      started.push(n);
      if (n === 2) throw new Error('two');
      const task = held(n);
      tasks.push(task);
      await task.done;
      return n;
    });
    await expect(run).rejects.toThrow('two');
    for (const task of tasks) task.end();
    await turn(); // task 1's end is where a next task would be started
    expect(started).toEqual([1, 2]);
  });

  it('rejects with CANCELLED as soon as the signal aborts, without waiting for tasks in flight', async () => {
    const controller = new AbortController();
    const tasks: Held[] = [];
    let finished = 0;
    const run = mapBounded([1, 2, 3], 3, controller.signal, async (n) => {
      const task = held(n);
      tasks.push(task);
      await task.done;
      finished++;
    });
    await turn();
    expect(tasks).toHaveLength(3);
    controller.abort();
    // The tasks are still held: a rejection now did not wait for them.
    await expect(run).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(finished).toBe(0);
    for (const task of tasks) task.end();
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
