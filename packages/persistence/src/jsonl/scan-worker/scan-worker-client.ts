import { Worker } from 'node:worker_threads';
import type { ScanTransfer } from './scan-file.js';
import type { ScanReply, ScanRequest, WorkerMessage } from './worker-main.js';

/** A worker that fails to start (or dies) this many times is not started again. */
export const SCAN_WORKER_MAX_STARTS = 3;
const WORKER_ENTRY = new URL('./worker-entry.mjs', import.meta.url);

interface Running {
  readonly worker: Worker;
  /** True once the worker said it is ready; until then scans are declined, not queued. */
  ready: boolean;
  /** Settles true when ready, false when the worker died first. */
  readonly whenReady: Promise<boolean>;
  readonly settleReady: (ready: boolean) => void;
}

/**
 * The main thread's side of the scan worker: one lazily started thread that reads, decompresses
 * and classifies logs for `scan`, so a listing's cold reads use both cores — the worker inflates
 * the next log while this thread parses the last one.
 *
 * It never fails or delays a scan: until the worker has started (it loads its module through the
 * TypeScript loader, a few hundred ms) and whenever it cannot start, dies, or declines a log, the
 * answer is `undefined` and the caller reads the log itself. The thread is unreferenced while
 * idle, so it never keeps a process alive, and referenced while a request is outstanding, so an
 * awaited scan always ends.
 */
export class ScanWorkerClient {
  #running: Running | undefined;
  readonly #pending = new Map<number, (transfer: ScanTransfer | undefined) => void>();
  #nextId = 0;
  #starts = 0;
  #closed = false;
  /** Scans the worker served, and scans it declined or could not take (diagnostics, tests). */
  readonly stats = { served: 0, declined: 0 };
  readonly #entry: URL;

  /** `entry` is the worker's module (tests substitute a failing one). */
  constructor(entry: URL = WORKER_ENTRY) {
    this.#entry = entry;
  }

  /** Requests a scan of `file`; undefined means "read it yourself". Starts the worker if needed. */
  scan(file: string, dataTypes: ReadonlySet<string>): Promise<ScanTransfer | undefined> {
    const running = this.#start();
    if (running === undefined || !running.ready) {
      this.stats.declined++;
      return Promise.resolve(undefined);
    }
    const { worker } = running;
    const id = ++this.#nextId;
    return new Promise((resolve) => {
      if (this.#pending.size === 0) worker.ref();
      this.#pending.set(id, resolve);
      const request: ScanRequest = { id, file, dataTypes: [...dataTypes] };
      worker.postMessage(request);
    });
  }

  /** Starts the worker if needed; true once it is ready, false if it cannot be (benches, tests). */
  whenReady(): Promise<boolean> {
    return this.#start()?.whenReady ?? Promise.resolve(false);
  }

  /** Stops the thread; outstanding scans answer undefined. */
  async close(): Promise<void> {
    this.#closed = true;
    const running = this.#running;
    this.#forget(running);
    if (running !== undefined) await running.worker.terminate();
  }

  #start(): Running | undefined {
    if (this.#running !== undefined) return this.#running;
    if (this.#closed || this.#starts >= SCAN_WORKER_MAX_STARTS) return undefined;
    this.#starts++;
    let worker: Worker;
    try {
      // No inherited execArgv: the entry registers its own loader, whatever runs this process.
      worker = new Worker(this.#entry, { execArgv: [] });
    } catch {
      return undefined;
    }
    worker.unref();
    let settleReady: (ready: boolean) => void = () => undefined;
    const whenReady = new Promise<boolean>((resolve) => (settleReady = resolve));
    const running: Running = { worker, ready: false, whenReady, settleReady };
    worker.on('message', (message: WorkerMessage) => {
      if ('ready' in message) {
        running.ready = true;
        running.settleReady(true);
        return;
      }
      this.#settle(running, message);
    });
    worker.on('error', () => this.#forget(running));
    worker.on('exit', () => this.#forget(running));
    this.#running = running;
    return running;
  }

  #settle(running: Running, reply: ScanReply): void {
    const resolve = this.#pending.get(reply.id);
    if (resolve === undefined) return;
    this.#pending.delete(reply.id);
    if (this.#pending.size === 0) running.worker.unref();
    if (reply.transfer === null) this.stats.declined++;
    else this.stats.served++;
    resolve(reply.transfer ?? undefined);
  }

  /** Forgets a dead or closing worker and answers every outstanding scan with undefined. */
  #forget(running: Running | undefined): void {
    if (running === undefined || this.#running !== running) return;
    this.#running = undefined;
    running.settleReady(false);
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    this.stats.declined += pending.length;
    for (const resolve of pending) resolve(undefined);
  }
}
