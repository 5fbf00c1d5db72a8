/** Reconnect delays: exponential in the attempt number, capped, with jitter so clients spread out. */
export interface BackoffPolicy {
  /** The delay before the first retry, before jitter. */
  readonly initialMs: number;
  /** The cap on the delay, before jitter. */
  readonly maxMs: number;
  /** The fraction of the delay that is random: 0 none, 1 "full jitter". */
  readonly jitter: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { initialMs: 250, maxMs: 30_000, jitter: 0.5 };

/**
 * The delay before retry number `attempt` (0 for the first): `min(maxMs, initialMs·2^attempt)`,
 * reduced by up to `jitter` of itself. `random` returns a number in [0, 1).
 */
export function backoffDelay(attempt: number, policy: BackoffPolicy, random: () => number): number {
  const exponent = Math.min(Math.max(0, attempt), 52);
  const capped = Math.min(policy.maxMs, policy.initialMs * 2 ** exponent);
  const jitter = Math.min(1, Math.max(0, policy.jitter));
  return capped * (1 - jitter * random());
}
