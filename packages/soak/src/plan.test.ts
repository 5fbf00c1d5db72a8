import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { STORAGE_FAULT_KINDS } from './fault-fs.js';
import { PG_FAULT_KINDS } from './pg-fault-pool.js';
import { drawPlan, drawPostgresPlan, MIN_KILLS } from './plan.js';
import { Prng } from './prng.js';

describe('the soak plan', () => {
  it('is the same for the same seed, with at least three kills, a fault for every host and every kind of fault (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 31 - 2 }),
        fc.integer({ min: 1_000, max: 30 * 60_000 }),
        (seed, durationMs) => {
          const plan = drawPlan(new Prng(seed), durationMs);
          expect(drawPlan(new Prng(seed), durationMs)).toEqual(plan);
          expect(plan.servesFor.length - 1).toBeGreaterThanOrEqual(MIN_KILLS);
          expect(plan.schedules).toHaveLength(plan.servesFor.length);
          for (const schedule of plan.schedules) expect(schedule.length).toBeGreaterThanOrEqual(1);
          const kinds = new Set(plan.schedules.map((schedule) => schedule[0]!.kind));
          expect([...kinds].sort()).toEqual([...STORAGE_FAULT_KINDS].sort());
          // Each incarnation serves within ±25 % of its share (rounding aside).
          const share = durationMs / plan.servesFor.length;
          for (const ms of plan.servesFor) expect(Math.abs(ms - share)).toBeLessThanOrEqual(share / 4 + 1);
        },
      ),
    );
  });

  it('on PostgreSQL: the same for the same seed, both hosts killed, three kills or more, a termination inside every stretch, a schedule for every incarnation, both kinds of fault (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 31 - 2 }),
        fc.integer({ min: 1_000, max: 30 * 60_000 }),
        (seed, durationMs) => {
          const plan = drawPostgresPlan(new Prng(seed), durationMs);
          expect(drawPostgresPlan(new Prng(seed), durationMs)).toEqual(plan);
          expect(plan.killed.length).toBeGreaterThanOrEqual(MIN_KILLS);
          expect(plan.killed).toHaveLength(plan.servesFor.length - 1);
          expect(new Set(plan.killed)).toEqual(new Set([0, 1]));
          plan.terminateAfter.forEach((after, i) => {
            expect(after).toBeGreaterThanOrEqual(0);
            expect(after).toBeLessThanOrEqual(plan.servesFor[i]!);
          });
          expect(plan.leaseExpiresAfterKill).toBeGreaterThanOrEqual(0);
          expect(plan.leaseExpiresAfterKill).toBeLessThan(plan.killed.length);
          expect(plan.schedules).toHaveLength(plan.killed.length + 2);
          const kinds = new Set(plan.schedules.map((schedule) => schedule[0]!.kind));
          expect([...kinds].sort()).toEqual([...PG_FAULT_KINDS].sort());
        },
      ),
    );
  });

  it('another seed draws another plan', () => {
    expect(drawPlan(new Prng(1), 120_000)).not.toEqual(drawPlan(new Prng(2), 120_000));
  });
});
