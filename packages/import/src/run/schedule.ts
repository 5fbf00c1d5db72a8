import { availableParallelism } from 'node:os';
import type { ImportOptions } from '../types.js';
import type { Candidate } from './choose-copies.js';
import type { DataFolder } from './data-folder.js';
import type { HarnessImporter, SessionPeek, SourceUnit } from './harness-importer.js';
import { inProcessLane, WorkerLane, type Lane, type WorkerInit } from './lanes.js';
import { loadDigest, type DigestSession } from './session-digest.js';
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

/**
 * Pulls tasks from one queue into every lane's free slots until the queue is done, or until
 * `stopped()` (checked before each task is taken: tasks in flight finish).
 */
export async function runQueue(
  queue: readonly Changed[],
  lanes: readonly Promise<Lane | undefined>[],
  perLane: number,
  onOutcome: (task: Changed, outcome: FileOutcome) => void,
  stopped: () => boolean = () => false,
): Promise<void> {
  let next = 0;
  const slot = async (lane: Lane): Promise<void> => {
    while (next < queue.length && lane.alive && !stopped()) {
      const item = queue[next++]!;
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

/** This thread's lane and the worker lanes of one run. */
export interface RunLanes {
  readonly main: Lane;
  /** Every lane; a worker lane resolves once it has loaded (undefined if it could not start). */
  readonly all: readonly Promise<Lane | undefined>[];
  close(): Promise<void>;
}

/**
 * The lanes for the changed files of a run, once the data folder is ready for writes (preparing
 * sweeps `tmp/`, so it comes before any lane writes). Parsing and encoding are CPU-bound, so for a
 * large import one worker per further core maps and writes files beside this thread; small
 * imports (and environments that cannot start a TypeScript worker) run in this thread alone.
 * Workers join as they come up; this thread's lane is there at once.
 */
export async function openLanes(
  options: ImportOptions,
  importer: HarnessImporter,
  folder: DataFolder,
  sizes: readonly number[],
): Promise<RunLanes> {
  // Workers start loading at once (a third of a second each), while this thread prepares the
  // folder and loads the digest; each is told the stored ids once the folder is prepared.
  const prepared = folder.prepare().then(() => folder.stored);
  const init: WorkerInit = {
    harness: options.harness,
    dataDir: folder.root,
    compression: folder.compression,
    ...(options.digest === undefined ? {} : { digestModule: options.digest.module }),
  };
  const workers = Array.from({ length: workerCount(options, sizes) }, () => WorkerLane.start(init, prepared));
  let digest: DigestSession | undefined;
  try {
    await prepared;
    digest = options.digest === undefined ? undefined : await loadDigest(options.digest.module);
  } catch (error) {
    // No lane outlives a run that cannot start (a worker given no folder stops by itself).
    for (const worker of workers) await (await worker)?.close();
    throw error;
  }
  const main = inProcessLane(importer, folder, digest);
  const all = [Promise.resolve<Lane | undefined>(main), ...workers];
  return {
    main,
    all,
    close: async () => {
      for (const lane of all) await (await lane)?.close();
    },
  };
}

/** Worker lanes for files of these sizes: none below WORKER_MIN_BYTES, else one per further core (at most 3). */
export function workerCount(options: ImportOptions, sizes: readonly number[]): number {
  if (options.workers !== undefined) return Math.max(0, options.workers);
  const bytes = sizes.reduce((sum, size) => sum + size, 0);
  return bytes >= WORKER_MIN_BYTES && sizes.length >= 8 ? Math.min(3, availableParallelism() - 1) : 0;
}
