import { cancelled } from './cancellation.js';

/**
 * Runs `task` over `items` with at most `limit` tasks in flight; results keep the input order.
 *
 * Rejects with the first task failure, or with `CANCELLED` as soon as `signal` aborts — without
 * waiting for tasks in flight: each task owns what it acquired and releases it when it settles
 * (a rung-3 read that settles after abort disposes its observation and is discarded). No task is
 * started after the result has settled.
 */
export function mapBounded<T, R>(
  items: readonly T[],
  limit: number,
  signal: AbortSignal | undefined,
  task: (item: T) => Promise<R>,
): Promise<R[]> {
  if (!Number.isSafeInteger(limit) || limit < 1) {
    return Promise.reject(new RangeError(`a concurrency limit is a positive integer, got ${limit}`));
  }
  if (signal?.aborted === true) return Promise.reject(cancelled(signal.reason));
  if (items.length === 0) return Promise.resolve([]);
  return new Promise<R[]>((resolve, reject) => {
    const results = new Array<R>(items.length);
    let next = 0;
    let inFlight = 0;
    let finished = 0;
    let settled = false;
    const onAbort = (): void => settle(cancelled(signal?.reason));
    const settle = (error?: unknown): void => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      if (error === undefined) resolve(results);
      else reject(error instanceof Error ? error : new Error('a bounded task failed', { cause: error }));
    };
    const launch = (): void => {
      while (!settled && inFlight < limit && next < items.length) {
        const index = next++;
        inFlight++;
        Promise.resolve()
          .then(() => task(items[index]!))
          .then(
            (result) => {
              inFlight--;
              results[index] = result;
              if (++finished === items.length) settle();
              else launch();
            },
            (error: unknown) => {
              inFlight--;
              settle(error);
            },
          );
      }
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    launch();
  });
}
