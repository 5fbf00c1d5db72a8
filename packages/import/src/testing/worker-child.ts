/**
 * What the worker-lane test children share: a `WorkerLane` started on a data folder as the
 * coordinating thread starts one (it loads while the folder is prepared), and a source folder's
 * transcripts discovered and peeked, the sessions among them kept.
 */
import { importerFor } from '../harnesses.js';
import { DataFolder } from '../run/data-folder.js';
import type { HarnessImporter, SessionPeek, SourceUnit } from '../run/harness-importer.js';
import { WorkerLane } from '../run/lanes.js';
import { isHarness } from '../types.js';

export interface StartedWorker {
  readonly importer: HarnessImporter;
  readonly folder: DataFolder;
  readonly lane: WorkerLane;
}

/** A worker lane of `harness` writing into `data` (with the session digest module at that URL, if any). */
export async function startWorker(
  harness: string,
  data: string,
  digestModule?: string,
): Promise<StartedWorker> {
  if (!isHarness(harness)) throw new Error(`unknown harness ${harness}`);
  const importer = importerFor(harness);
  const folder = new DataFolder(data, 'zstd');
  const lane = await WorkerLane.start(
    { harness, dataDir: data, compression: 'zstd', ...(digestModule === undefined ? {} : { digestModule }) },
    folder.prepare().then(() => folder.stored),
  );
  if (lane === undefined) throw new Error('worker lane did not start');
  return { importer, folder, lane };
}

/** The transcripts under `source` that peek as sessions, in discovery's order. */
export async function peekedSessions(
  importer: HarnessImporter,
  source: string,
): Promise<{ unit: SourceUnit; peek: SessionPeek }[]> {
  const found: { unit: SourceUnit; peek: SessionPeek }[] = [];
  for (const unit of await importer.discover(source)) {
    const peek = await importer.peek(unit);
    if (peek.kind === 'session') found.push({ unit, peek });
  }
  return found;
}
