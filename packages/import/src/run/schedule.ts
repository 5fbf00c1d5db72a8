import { availableParallelism } from 'node:os';
import type { ImportOptions } from '../types.js';
import type { Candidate } from './choose-copies.js';
import type { DataFolder } from './data-folder.js';
import type { HarnessImporter, SessionPeek, SourceUnit } from './harness-importer.js';
import { inProcessLane, WorkerLane, type Lane, type ThreadLane, type WorkerInit } from './lanes.js';
import { loadDigest, type DigestSession } from './session-digest.js';
import { failedOutcome, type FileOutcome, type FileTask } from './process-file.js';
import { QueueCursor } from './queue-cursor.js';
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
 * Runs every file of one queue on every lane, each lane taking the next file itself when one of
 * its `perLane` slots is free, until the queue is done, or until `stopped()` (asked in this thread
 * before each file it takes and after each outcome: files in flight finish, and a worker lane may
 * start a file in between). `onOutcome` gets exactly one outcome per file taken: a lane that dies
 * leaves its files in flight failed, with why.
 */
export async function runQueue(
  queue: readonly Changed[],
  lanes: readonly Promise<Lane | undefined>[],
  perLane: number,
  onOutcome: (task: Changed, outcome: FileOutcome) => void,
  stopped: () => boolean = () => false,
): Promise<void> {
  const tasks = queue.map(task);
  const cursor = QueueCursor.create(tasks.length, stopped);
  const answered = new Uint8Array(tasks.length);
  const record = (index: number, outcome: FileOutcome): void => {
    answered[index] = 1;
    onOutcome(queue[index]!, outcome);
    if (stopped()) cursor.stop();
  };
  const deaths = await Promise.all(
    lanes.map(async (pending) => (await pending)?.drain(tasks, cursor, perLane, record)),
  );
  const died = deaths.find((why) => why !== undefined);
  if (died === undefined) return;
  for (let index = 0; index < cursor.taken; index++)
    if (answered[index] === 0) onOutcome(queue[index]!, failedOutcome(tasks[index]!, died));
}

/** This thread's lane and the worker lanes of one run. */
export interface RunLanes {
  readonly main: ThreadLane;
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
