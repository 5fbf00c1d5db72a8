import fc from 'fast-check';
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { threadLane, type Lane } from './lanes.js';
import type { FileOutcome, FileTask } from './process-file.js';
import { runQueue, workerCount, type Changed } from './schedule.js';

/** A queued file: only what `task()` reads of it. */
const changed = (i: number): Changed =>
  ({
    unit: { file: `/f${i}` },
    stamps: { companions: [] },
    peek: { kind: 'session' },
  }) as unknown as Changed;

const outcome = (task: FileTask): FileOutcome =>
  ({
    file: task.unit.file,
    skippedRecords: 0,
    ignored: {},
    reports: [],
    result: { kind: 'empty' },
  }) as unknown as FileOutcome;

/**
 * A lane whose tasks finish in an order the test chooses: each run waits a number of turns of
 * the microtask queue drawn from `delays` (replayable, no timers).
 */
function lane(delays: () => number, started: string[]): Lane {
  return threadLane(async (task) => {
    started.push(task.unit.file);
    for (let turns = delays(); turns > 0; turns--) await Promise.resolve();
    return outcome(task);
  });
}

/**
 * A lane that dies once it has taken `files` files, as a worker thread does: the files it had in
 * flight never get an outcome, and its drain resolves with why.
 */
function dyingLane(files: number, delays: () => number, taken: string[]): Lane {
  return {
    drain: async (queue, cursor, slots, onOutcome) => {
      let died = false;
      const slot = async (): Promise<void> => {
        while (!died) {
          const index = cursor.take();
          if (index === undefined) return;
          taken.push(queue[index]!.unit.file);
          if (taken.length >= files) died = true;
          for (let turns = delays(); turns > 0; turns--) await Promise.resolve();
          if (died) return;
          onOutcome(index, outcome(queue[index]!));
        }
      };
      await Promise.all(Array.from({ length: slots }, slot));
      return died ? 'import worker exited (1)' : undefined;
    },
    close: () => Promise.resolve(),
  };
}

describe('runQueue: one queue over every lane', () => {
  it('runs every file exactly once, whatever the lanes, slots and finishing order', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 60 }),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 1, max: 5 }),
        fc.infiniteStream(fc.integer({ min: 0, max: 6 })),
        async (files, lanesUp, perLane, turns) => {
          const started: string[] = [];
          const done: string[] = [];
          const next = (): number => turns.next().value as number;
          // A lane that could not start (a worker that did not come up) takes nothing.
          const lanes = lanesUp.map((up) => Promise.resolve(up ? lane(next, started) : undefined));
          if (!lanesUp.some(Boolean)) lanes.push(Promise.resolve(lane(next, started)));
          const queue = Array.from({ length: files }, (_, i) => changed(i));
          await runQueue(queue, lanes, perLane, (task, result) => {
            expect(result.file).toBe(task.unit.file);
            done.push(task.unit.file);
          });
          const all = queue.map((c) => c.unit.file);
          expect([...started].sort()).toEqual([...all].sort());
          expect([...done].sort()).toEqual([...all].sort());
        },
      ),
    );
  });

  it('once stopped, takes no new file; the files in flight finish', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 1, max: 5 }),
        fc.infiniteStream(fc.integer({ min: 0, max: 6 })),
        async (stopAfter, laneCount, perLane, turns) => {
          const started: string[] = [];
          const next = (): number => turns.next().value as number;
          const lanes = Array.from({ length: laneCount }, () => Promise.resolve(lane(next, started)));
          let outcomes = 0;
          let startedWhenStopped: number | undefined;
          const queue = Array.from({ length: 200 }, (_, i) => changed(i));
          await runQueue(
            queue,
            lanes,
            perLane,
            () => {
              if (++outcomes === stopAfter) startedWhenStopped = started.length;
            },
            () => outcomes >= stopAfter,
          );
          // Nothing started after the stop, and everything started was finished.
          expect(started.length).toBe(startedWhenStopped);
          expect(outcomes).toBe(started.length);
          expect(started.length).toBeLessThanOrEqual(stopAfter + laneCount * perLane - 1);
        },
      ),
    );
  });
});

describe('runQueue: a lane that dies', () => {
  it('leaves the files it had in flight failed with why; every other file runs once on the lanes alive', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 1, max: 10 }),
        fc.integer({ min: 1, max: 5 }),
        fc.infiniteStream(fc.integer({ min: 0, max: 6 })),
        async (files, dieAfter, perLane, turns) => {
          const next = (): number => turns.next().value as number;
          const started: string[] = [];
          const takenByDying: string[] = [];
          const outcomes = new Map<string, FileOutcome[]>();
          const queue = Array.from({ length: files }, (_, i) => changed(i));
          await runQueue(
            queue,
            [Promise.resolve(lane(next, started)), Promise.resolve(dyingLane(dieAfter, next, takenByDying))],
            perLane,
            (task, result) => outcomes.set(task.unit.file, [...(outcomes.get(task.unit.file) ?? []), result]),
          );
          // Exactly one outcome per file; a file failed only if the dying lane took it and died.
          for (const c of queue) expect(outcomes.get(c.unit.file)).toHaveLength(1);
          const failed = queue
            .map((c) => c.unit.file)
            .filter((file) => outcomes.get(file)![0]!.result.kind === 'failed');
          const dead = takenByDying.length >= dieAfter;
          for (const file of failed) {
            expect(takenByDying).toContain(file);
            expect(outcomes.get(file)![0]!.result).toEqual({
              kind: 'failed',
              reason: 'import worker exited (1)',
            });
          }
          if (dead) expect(failed.length).toBeGreaterThan(0);
          else expect(failed).toEqual([]);
          // Every file not failed ran on exactly one lane.
          expect([...started, ...takenByDying].sort()).toEqual(queue.map((c) => c.unit.file).sort());
        },
      ),
    );
  });
});

describe('workerCount', () => {
  it('none for a small import, one per further core (at most 3) for a large one, or as asked', () => {
    const mb = 1024 * 1024;
    expect(
      workerCount(
        {} as never,
        Array.from({ length: 100 }, () => 0.1 * mb),
      ),
    ).toBe(0);
    expect(
      workerCount(
        {} as never,
        Array.from({ length: 4 }, () => 20 * mb),
      ),
    ).toBe(0);
    expect(
      workerCount(
        {} as never,
        Array.from({ length: 40 }, () => mb),
      ),
    ).toBe(Math.min(3, availableParallelism() - 1));
    expect(workerCount({ workers: 2 } as never, [])).toBe(2);
    expect(workerCount({ workers: -1 } as never, [])).toBe(0);
  });
});
