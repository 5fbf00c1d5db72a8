import { availableParallelism } from 'node:os';
import type { ImportOptions } from '../types.js';
import type { Candidate } from './choose-copies.js';
import type { SessionPeek, SourceUnit } from './harness-importer.js';
import { WorkerLane, type Lane } from './lanes.js';
import type { FileOutcome, FileTask } from './process-file.js';
import type { UnitStamps } from '../ledger/stamps.js';

/** Below this much changed source, worker threads cost more to start than they save. */
const WORKER_MIN_BYTES = 32 * 1024 * 1024;

/** A changed file chosen for import: its unit, stamps, identity and peek. */
export type Changed = {
  readonly unit: SourceUnit;
  readonly stamps: UnitStamps;
  readonly peek: SessionPeek;
} & Candidate;

export function task(c: Changed): FileTask {
  return { unit: c.unit, peek: c.peek, companions: c.stamps.companions.map((s) => s.path) };
}

/** Pulls tasks from one queue into every lane's free slots until the batch is done. */
export async function runBatch(
  batch: readonly Changed[],
  lanes: readonly Promise<Lane | undefined>[],
  perLane: number,
  onOutcome: (task: Changed, outcome: FileOutcome) => void,
): Promise<void> {
  let next = 0;
  const slot = async (lane: Lane): Promise<void> => {
    while (next < batch.length && lane.alive) {
      const item = batch[next++]!;
      onOutcome(item, await lane.run(task(item)));
    }
  };
  await Promise.all(
    lanes.map(async (pending) => {
      const lane = await pending;
      if (lane !== undefined) await Promise.all(Array.from({ length: perLane }, () => slot(lane)));
    }),
  );
}

/**
 * Worker lanes for a large import: parsing and encoding are CPU-bound, so beside this thread one
 * worker per further core maps and writes files. Small imports (and environments that cannot
 * start a TypeScript worker) run in this thread alone.
 */
export function startWorkers(
  options: ImportOptions,
  plain: readonly Changed[],
  dataDir: string,
  compression: 'zstd' | 'none',
  stored: Set<string>,
): Promise<Lane | undefined>[] {
  const bytes = plain.reduce((sum, c) => sum + c.size, 0);
  const count =
    options.workers ??
    (bytes >= WORKER_MIN_BYTES && plain.length >= 8 ? Math.min(3, availableParallelism() - 1) : 0);
  if (count <= 0) return [];
  const init = {
    harness: options.harness,
    dataDir,
    compression,
    stored: [...stored],
    ...(options.digest === undefined ? {} : { digestModule: options.digest.module }),
  };
  return Array.from({ length: count }, () => WorkerLane.start(init));
}
