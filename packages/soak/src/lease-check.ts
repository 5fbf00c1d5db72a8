import type { BrokenPromise } from './checker.js';
import type { Acknowledged } from './ledger.js';

/** The leases a SIGKILLed host held the moment it died (read from the database right after the kill). */
export interface KilledLeases {
  /** The host (0 or 1) that was killed. */
  readonly host: number;
  /** When it was killed (epoch ms): acknowledgements that arrived before speak of earlier writes. */
  readonly killedAt: number;
  /** Session id → when its lease runs out (epoch ms, database time). */
  readonly expiresAt: ReadonlyMap<string, number>;
}

export interface TakeoverCheck {
  /** Writes the other host acknowledged on a dead host's session before that lease ran out. */
  readonly early: readonly Extract<BrokenPromise, { promise: 'lease' }>[];
  /** Distinct sessions of a dead host the other host wrote to after the lease ran out. */
  readonly takenOver: number;
}

/**
 * The lease promise (docs/soak.md): a killed host's session is taken over by the other host only
 * after its lease ran out. An acknowledgement that arrived (`at`) before the lease's expiry was
 * committed before it: a broken promise. `hostOf` names the host a client talks to.
 */
export function checkTakeovers(
  acknowledged: readonly Acknowledged[],
  killed: readonly KilledLeases[],
  hostOf: (client: number) => number,
): TakeoverCheck {
  const early: Extract<BrokenPromise, { promise: 'lease' }>[] = [];
  const taken = new Set<string>();
  for (const { host, killedAt, expiresAt } of killed) {
    for (const ack of acknowledged) {
      if (ack.client === undefined || ack.at === undefined || ack.at <= killedAt) continue;
      if (hostOf(ack.client) === host) continue;
      const expiry = expiresAt.get(ack.session);
      if (expiry === undefined) continue;
      if (ack.at >= expiry) {
        taken.add(ack.session);
        continue;
      }
      early.push({
        promise: 'lease',
        session: ack.session,
        detail: `host ${1 - host} acknowledged ${ack.method} ${ack.at - expiry} ms before host ${host}'s lease ran out (${new Date(expiry).toISOString()})`,
      });
    }
  }
  return { early, takenOver: taken.size };
}
