import { Worker } from 'node:worker_threads';
import type { ImportOptions } from '../types.js';
import type { HarnessImporter } from './harness-importer.js';
import { processFile, type FileOutcome, type FileTask } from './process-file.js';
import type { DataFolder } from './data-folder.js';
import type { DigestSession } from './session-digest.js';

/**
 * A lane maps and writes files: the coordinating thread itself, or a worker thread writing to
 * the same data folder. Lanes never write the same session (each changed file — and so each
 * session id — goes to exactly one lane), so they need no coordination beyond this: the data
 * folder is prepared (its `tmp/` swept) before any lane writes.
 */
export interface Lane {
  /** False once a worker died: the scheduler stops giving it files (the one in flight failed). */
  readonly alive: boolean;
  run(task: FileTask): Promise<FileOutcome>;
  close(): Promise<void>;
}

export function inProcessLane(importer: HarnessImporter, folder: DataFolder, digest?: DigestSession): Lane {
  return {
    alive: true,
    run: (task) => processFile(importer, task, folder, digest),
    close: () => Promise.resolve(),
  };
}

/** What a worker starts with; the stored ids follow once the data folder is prepared (`WorkerLane.start`). */
export interface WorkerInit {
  readonly harness: ImportOptions['harness'];
  readonly dataDir: string;
  readonly compression: 'zstd' | 'none';
  /** The session digest module every lane loads (`SessionDigestOption.module`), if any. */
  readonly digestModule?: string;
}

/** How long a worker may take to load before its lane is given up. */
const BOOT_TIMEOUT_MS = 30_000;

type Reply = { id: number; outcome?: FileOutcome; error?: string } | { ready: true } | { bootError: string };

/** A lane backed by a worker thread running `import-worker`. */
export class WorkerLane implements Lane {
  readonly #worker: Worker;
  readonly #pending = new Map<number, (reply: { outcome?: FileOutcome; error?: string }) => void>();
  #next = 0;
  #dead: string | undefined;

  private constructor(worker: Worker) {
    this.#worker = worker;
    worker.on('message', (reply: Reply) => {
      if ('id' in reply) {
        const settle = this.#pending.get(reply.id);
        this.#pending.delete(reply.id);
        settle?.(reply);
      }
    });
    const die = (why: string): void => {
      this.#dead ??= why;
      for (const settle of this.#pending.values()) settle({ error: why });
      this.#pending.clear();
    };
    worker.on('error', (error) => die(`import worker failed: ${error.message}`));
    worker.on('exit', (code) => die(`import worker exited (${code})`));
  }

  /**
   * Starts a worker, and resolves once it has loaded and been told `stored` (the ids the prepared
   * data folder holds); undefined if it cannot start, or if `stored` rejects (the folder could not
   * be prepared: the worker is stopped, and whoever awaits `stored` sees why). The worker loads
   * while the folder is prepared: it writes nothing before it is given a file, and no lane is given
   * one before the folder is ready.
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
      worker.once('message', (reply: Reply) => settle('ready' in reply));
      worker.once('error', () => settle(false));
      worker.once('exit', () => settle(false));
    });
    // The folder is prepared long before a worker loads; if it cannot be, the worker stops at once.
    const known = await ids;
    if (known === undefined || !(await loaded)) {
      await worker.terminate();
      return undefined;
    }
    // Sent before any task (one port keeps its messages' order): the worker's folder knows them first.
    worker.postMessage({ type: 'folder', stored: known });
    return new WorkerLane(worker);
  }

  get alive(): boolean {
    return this.#dead === undefined;
  }

  run(task: FileTask): Promise<FileOutcome> {
    return this.#call({ type: 'task', task }).then((reply) => {
      if (reply.outcome !== undefined) return reply.outcome;
      return {
        file: task.unit.file,
        skippedRecords: 0,
        ignored: {},
        reports: [],
        result: { kind: 'failed' as const, reason: reply.error ?? 'import worker failed' },
      };
    });
  }

  async close(): Promise<void> {
    if (this.#dead === undefined) await this.#call({ type: 'close' });
    await this.#worker.terminate();
  }

  #call(message: object): Promise<{ outcome?: FileOutcome; error?: string }> {
    if (this.#dead !== undefined) return Promise.resolve({ error: this.#dead });
    const id = this.#next++;
    return new Promise((resolve) => {
      this.#pending.set(id, resolve);
      this.#worker.postMessage({ ...message, id });
    });
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
