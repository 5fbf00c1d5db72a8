import { STORAGE_FAULT_KINDS, type ScheduledFault } from './fault-fs.js';
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
  const kills = Math.max(MIN_KILLS, Math.ceil((durationMs / 60_000) * 2));
  const share = durationMs / (kills + 1);
  const servesFor = Array.from({ length: kills + 1 }, () =>
    Math.max(0, Math.round(share + prng.int(-Math.floor(share / 4), Math.floor(share / 4)))),
  );
  const schedules = servesFor.map((_, i) => {
    const first: ScheduledFault = {
      kind: STORAGE_FAULT_KINDS[i % STORAGE_FAULT_KINDS.length]!,
      at: prng.int(2, 12),
    };
    if (prng.int(0, 1) === 0) return [first];
    return [first, { kind: prng.pick(STORAGE_FAULT_KINDS), at: prng.int(20, 120) }];
  });
  return { servesFor, schedules };
}
