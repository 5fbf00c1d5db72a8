/** The timers a share connection's expiry is armed on: Node's by default, a manual clock's in tests. */
export interface ShareTimers {
  setTimeout(fire: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Node's timers, unreferenced: an armed expiry never keeps a process alive on its own. */
export const NODE_TIMERS: ShareTimers = {
  setTimeout: (fire, ms) => setTimeout(fire, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/**
 * The longest wait one Node timer holds (2^31 − 1 ms, about 24.8 days): a longer one fires at
 * once. Grants may run for years, so a far expiry is reached in steps of at most this.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Calls `expire` once `now()` reaches `expiresAt` (at once when it has already), each step armed
 * on `timers` and the time read again when it fires. Returns the cancellation.
 */
export function armExpiry(
  expiresAt: number,
  now: () => number,
  timers: ShareTimers,
  expire: () => void,
): () => void {
  let handle: unknown;
  let cancelled = false;
  const step = (): void => {
    if (cancelled) return;
    const left = expiresAt - now();
    if (left <= 0) {
      expire();
      return;
    }
    handle = timers.setTimeout(step, Math.min(left, MAX_TIMER_MS));
  };
  step();
  return () => {
    cancelled = true;
    if (handle !== undefined) timers.clearTimeout(handle);
  };
}
