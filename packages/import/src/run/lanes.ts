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

export interface WorkerInit {
  readonly harness: ImportOptions['harness'];
  readonly dataDir: string;
  readonly compression: 'zstd' | 'none';
  readonly stored: readonly string[];
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

  /** Starts a worker and waits until it has loaded; undefined if it cannot start. */
  static async start(init: WorkerInit): Promise<WorkerLane | undefined> {
    const boot = workerBootCode();
    if (boot === undefined) return undefined;
    const worker = new Worker(boot, { eval: true, workerData: init });
    const ready = await new Promise<boolean>((resolve) => {
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
    if (!ready) {
      await worker.terminate();
      return undefined;
    }
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
