import { Worker } from 'node:worker_threads';
import type { ImportOptions } from '../types.js';
import type { HarnessImporter } from './harness-importer.js';
import { processFile, type FileOutcome, type FileTask } from './process-file.js';
import type { DataFolder } from './data-folder.js';
import type { DigestSession } from './session-digest.js';
import type { QueueCursor, SharedCursor } from './queue-cursor.js';

/**
 * A lane maps and writes files: the coordinating thread itself, or a worker thread writing to
 * the same data folder. Lanes never write the same session (each changed file — and so each
 * session id — goes to exactly one lane), so they need no coordination beyond this: the data
 * folder is prepared (its `tmp/` swept) before any lane writes, and every lane takes its files
 * from one `QueueCursor`.
 */
export interface Lane {
  /**
   * Maps and writes files of `queue` taken through `cursor`, `slots` at a time, until it gives
   * none; `onOutcome` gets each file's index and outcome, in this thread, as the file finishes.
   * Resolves once this lane's files in flight finished — with why, if the lane died: the files it
   * had in flight then have no outcome.
   */
  drain(
    queue: readonly FileTask[],
    cursor: QueueCursor,
    slots: number,
    onOutcome: (index: number, outcome: FileOutcome) => void,
  ): Promise<string | undefined>;
  close(): Promise<void>;
}

/** The coordinating thread's lane: it also runs single files (forks, one by one). */
export interface ThreadLane extends Lane {
  run(task: FileTask): Promise<FileOutcome>;
}

/** A lane in this thread running each file with `run`. */
export function threadLane(run: (task: FileTask) => Promise<FileOutcome>): ThreadLane {
  return {
    run,
    drain: async (queue, cursor, slots, onOutcome) => {
      const slot = async (): Promise<void> => {
        for (let index = cursor.take(); index !== undefined; index = cursor.take())
          onOutcome(index, await run(queue[index]!));
      };
      await Promise.all(Array.from({ length: slots }, slot));
      return undefined;
    },
    close: () => Promise.resolve(),
  };
}

export function inProcessLane(
  importer: HarnessImporter,
  folder: DataFolder,
  digest?: DigestSession,
): ThreadLane {
  return threadLane((task) => processFile(importer, task, folder, digest));
}

/** What a worker starts with; the stored ids follow once the data folder is prepared (`WorkerLane.start`). */
export interface WorkerInit {
  readonly harness: ImportOptions['harness'];
  readonly dataDir: string;
  readonly compression: 'zstd' | 'none';
  /** The session digest module every lane loads (`SessionDigestOption.module`), if any. */
  readonly digestModule?: string;
}

/** What the coordinating thread sends a worker (`import-worker`), in this order: its folder's ids, then drains, then close. */
export type WorkerMessage =
  | { readonly type: 'folder'; readonly stored: readonly string[] }
  | {
      readonly type: 'drain';
      readonly id: number;
      readonly queue: readonly FileTask[];
      readonly cursor: SharedCursor;
      readonly slots: number;
    }
  | { readonly type: 'close'; readonly id: number };

/** What a worker answers: loaded (or not), each file of a drain as it finishes, a drain's end, closed. */
export type WorkerReply =
  | { readonly ready: true }
  | { readonly bootError: string }
  | { readonly id: number; readonly index: number; readonly outcome: FileOutcome }
  | { readonly id: number; readonly drained: true }
  | { readonly id: number; readonly closed: true };

/** How long a worker may take to load before its lane is given up. */
const BOOT_TIMEOUT_MS = 30_000;

/** A lane backed by a worker thread running `import-worker`. */
export class WorkerLane implements Lane {
  readonly #worker: Worker;
  /** Drains in flight, by call id. */
  readonly #drains = new Map<
    number,
    { onOutcome: (index: number, outcome: FileOutcome) => void; done: (died?: string) => void }
  >();
  #closing: (() => void) | undefined;
  #next = 0;
  #dead: string | undefined;

  private constructor(worker: Worker) {
    this.#worker = worker;
    worker.on('message', (reply: WorkerReply) => {
      if (!('id' in reply)) return;
      if ('closed' in reply) {
        this.#closing?.();
        return;
      }
      const drain = this.#drains.get(reply.id);
      if (drain === undefined) return;
      if ('outcome' in reply) drain.onOutcome(reply.index, reply.outcome);
      else {
        this.#drains.delete(reply.id);
        drain.done();
      }
    });
    const die = (why: string): void => {
      this.#dead ??= why;
      // Its files in flight get no outcome (the caller fails them); a message the worker sent
      // before it died that arrives later finds no drain.
      for (const drain of this.#drains.values()) drain.done(this.#dead);
      this.#drains.clear();
      this.#closing?.();
    };
    worker.on('error', (error) => die(`import worker failed: ${error.message}`));
    worker.on('exit', (code) => die(`import worker exited (${code})`));
  }

  /**
   * Starts a worker, and resolves once it has loaded and been told `stored` (the ids the prepared
   * data folder holds); undefined if it cannot start, or if `stored` rejects (the folder could not
   * be prepared: the worker is stopped, and whoever awaits `stored` sees why). The worker loads
   * while the folder is prepared: it writes nothing before it is given files, and no lane is given
   * any before the folder is ready.
   */
  static async start(init: WorkerInit, stored: Promise<Iterable<string>>): Promise<WorkerLane | undefined> {
    const boot = workerBootCode();
    if (boot === undefined) return undefined;
    const worker = new Worker(boot, { eval: true, workerData: init });
    const ids = stored.then(
      (known) => [...known],
      () => undefined,
    );
    const loaded = new Promise<boolean>((resolve) => {
      // A worker that never comes up must not hold the import: the other lanes carry on.
      const timer = setTimeout(() => resolve(false), BOOT_TIMEOUT_MS);
      const settle = (ok: boolean): void => {
        clearTimeout(timer);
        resolve(ok);
      };
      worker.once('message', (reply: WorkerReply) => settle('ready' in reply));
      worker.once('error', () => settle(false));
      worker.once('exit', () => settle(false));
    });
    // The folder is prepared long before a worker loads; if it cannot be, the worker stops at once.
    const known = await ids;
    if (known === undefined || !(await loaded)) {
      await worker.terminate();
      return undefined;
    }
    const lane = new WorkerLane(worker);
    // Sent before any file (one port keeps its messages' order): the worker's folder knows them first.
    lane.#post({ type: 'folder', stored: known });
    return lane;
  }

  drain(
    queue: readonly FileTask[],
    cursor: QueueCursor,
    slots: number,
    onOutcome: (index: number, outcome: FileOutcome) => void,
  ): Promise<string | undefined> {
    if (this.#dead !== undefined) return Promise.resolve(this.#dead);
    const id = this.#next++;
    return new Promise((resolve) => {
      this.#drains.set(id, { onOutcome, done: resolve });
      this.#post({ type: 'drain', id, queue, cursor: cursor.shared, slots });
    });
  }

  async close(): Promise<void> {
    if (this.#dead === undefined) {
      const closed = new Promise<void>((resolve) => (this.#closing = resolve));
      this.#post({ type: 'close', id: this.#next++ });
      await closed;
    }
    await this.#worker.terminate();
  }

  #post(message: WorkerMessage): void {
    this.#worker.postMessage(message);
  }
}

/**
 * The code a worker starts with. This repository runs its TypeScript sources through tsx, and
 * Node 20 does not carry the parent's module hooks into workers, so a worker started from a `.ts`
 * module registers tsx itself before importing the worker module. Where no TypeScript loader is
 * available (e.g. under a test runner with its own transform) there are no workers and the
 * import runs in one thread.
 */
function workerBootCode(): string | undefined {
  const here = import.meta.url;
  const fromSource = here.endsWith('.ts');
  const target = new URL(fromSource ? './import-worker.ts' : './import-worker.js', here).href;
  if (!fromSource) return `import(${JSON.stringify(target)})`;
  if (!process.execArgv.some((arg) => arg.includes('tsx'))) return undefined;
  let api: string;
  try {
    api = import.meta.resolve('tsx/esm/api');
  } catch {
    return undefined;
  }
  return `import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(target)}); }).catch((e) => { require('node:worker_threads').parentPort.postMessage({ bootError: String(e && e.stack || e) }); });`;
}
