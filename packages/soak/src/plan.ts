import { STORAGE_FAULT_KINDS, type ScheduledFault } from './fault-fs.js';
import { PG_FAULT_KINDS, type ScheduledPgFault } from './pg-fault-pool.js';
import type { Prng } from './prng.js';

/** What a run will do, drawn from the seed before it starts: how long each host serves, which faults it meets. */
export interface SoakPlan {
  /**
   * Per host incarnation, the milliseconds it serves before it is SIGKILLed (the last one: before
   * it is stopped). Serving time only: a restart's start-up is not counted, so a short run still
   * puts load on every incarnation.
   */
  readonly servesFor: readonly number[];
  /** One fault schedule per host incarnation. */
  readonly schedules: readonly (readonly ScheduledFault[])[];
}

/** At least this many kills per run (issue 48); each incarnation meets a fault, so at least this many faults too. */
export const MIN_KILLS = 3;

/**
 * About two kills a minute, at least `MIN_KILLS`: the run's serving time is cut into one stretch per
 * incarnation, each a random ±25 % around its share. Every incarnation meets one fault early (the
 * kinds taking turns, so four incarnations cover each kind) and maybe a second one later.
 */
export function drawPlan(prng: Prng, durationMs: number): SoakPlan {
  const servesFor = drawServing(prng, durationMs);
  const schedules = servesFor.map((_, i) => drawSchedule(prng, STORAGE_FAULT_KINDS, i));
  return { servesFor, schedules };
}

/** The serving stretches: about two kills a minute, at least `MIN_KILLS`, each ±25 % around its share. */
function drawServing(prng: Prng, durationMs: number): number[] {
  const kills = Math.max(MIN_KILLS, Math.ceil((durationMs / 60_000) * 2));
  const share = durationMs / (kills + 1);
  return Array.from({ length: kills + 1 }, () =>
    Math.max(0, Math.round(share + prng.int(-Math.floor(share / 4), Math.floor(share / 4)))),
  );
}

/** One incarnation's faults: one early (the kinds taking turns by `i`), maybe a second one later. */
function drawSchedule<K>(prng: Prng, kinds: readonly K[], i: number): { kind: K; at: number }[] {
  const first = { kind: kinds[i % kinds.length]!, at: prng.int(2, 12) };
  if (prng.int(0, 1) === 0) return [first];
  return [first, { kind: prng.pick(kinds), at: prng.int(20, 120) }];
}

/** What the PostgreSQL soak does, drawn from the seed: two hosts on one database. */
export interface PostgresSoakPlan {
  /** Per stretch, the milliseconds served before the stretch's kill (the last: before both are stopped). */
  readonly servesFor: readonly number[];
  /** Per stretch but the last, the host (0 or 1) SIGKILLed at its end. */
  readonly killed: readonly number[];
  /** Per stretch, how far into it a host's database backend is terminated (`pg_terminate_backend`). */
  readonly terminateAfter: readonly number[];
  /** The kill after which the killed host stays down until its leases expired. */
  readonly leaseExpiresAfterKill: number;
  /** The fault schedules: host 0's first incarnation, host 1's, then one per restart in kill order. */
  readonly schedules: readonly (readonly ScheduledPgFault[])[];
}

/**
 * The PostgreSQL plan: the stretches as `drawPlan`'s, each ending in the SIGKILL of one host (either
 * one, drawn), one backend terminated inside every stretch, one kill whose host stays down until
 * its leases ran out, and the fault schedules with `statement` and `drop` taking turns.
 */
export function drawPostgresPlan(prng: Prng, durationMs: number): PostgresSoakPlan {
  const servesFor = drawServing(prng, durationMs);
  const killed = servesFor.slice(1).map(() => prng.int(0, 1));
  // Either host may be killed, and each is at least once.
  if (!killed.includes(1 - killed[0]!)) killed[killed.length - 1] = 1 - killed[0]!;
  const terminateAfter = servesFor.map((serves) => prng.int(0, serves));
  const leaseExpiresAfterKill = prng.int(0, killed.length - 1);
  const schedules = Array.from({ length: killed.length + 2 }, (_, i) =>
    drawSchedule(prng, PG_FAULT_KINDS, i),
  );
  return { servesFor, killed, terminateAfter, leaseExpiresAfterKill, schedules };
}
