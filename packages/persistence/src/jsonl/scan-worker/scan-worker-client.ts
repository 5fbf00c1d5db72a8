import { Worker } from 'node:worker_threads';
import type { ScanTransfer } from './scan-file.js';
import type { ScanReply, ScanRequest } from './worker-main.js';

/** A worker that fails to start (or dies) this many times is not started again. */
export const SCAN_WORKER_MAX_STARTS = 3;
const WORKER_ENTRY = new URL('./worker-entry.mjs', import.meta.url);

/**
 * The main thread's side of the scan worker: one lazily started thread that reads, decompresses
 * and classifies logs for `scan`, so a listing's cold reads use both cores — the worker inflates
 * the next log while this thread parses the last one.
 *
 * It never fails a scan: a worker that cannot start, dies, or declines a log answers `undefined`,
 * and the caller reads the log itself. The thread is unreferenced while idle, so it never keeps
 * a process alive, and referenced while a request is outstanding, so an awaited scan always ends.
 */
export class ScanWorkerClient {
  #worker: Worker | undefined;
  readonly #pending = new Map<number, (transfer: ScanTransfer | undefined) => void>();
  #nextId = 0;
  #starts = 0;
  #closed = false;
  /** Scans the worker served, and scans it declined or could not take (diagnostics, tests). */
  readonly stats = { served: 0, declined: 0 };

  /** `entry` is the worker's module (tests substitute a failing one). */
  constructor(private readonly entry: URL = WORKER_ENTRY) {}

  /** Requests a scan of `file`; undefined means "read it yourself". */
  scan(file: string, dataTypes: ReadonlySet<string>): Promise<ScanTransfer | undefined> {
    const worker = this.#running();
    if (worker === undefined) {
      this.stats.declined++;
      return Promise.resolve(undefined);
    }
    const id = ++this.#nextId;
    return new Promise((resolve) => {
      if (this.#pending.size === 0) worker.ref();
      this.#pending.set(id, resolve);
      const request: ScanRequest = { id, file, dataTypes: [...dataTypes] };
      worker.postMessage(request);
    });
  }

  /** Stops the thread; outstanding scans answer undefined. */
  async close(): Promise<void> {
    this.#closed = true;
    const worker = this.#worker;
    this.#settleAll(worker);
    if (worker !== undefined) await worker.terminate();
  }

  #running(): Worker | undefined {
    if (this.#worker !== undefined) return this.#worker;
    if (this.#closed || this.#starts >= SCAN_WORKER_MAX_STARTS) return undefined;
    this.#starts++;
    let worker: Worker;
    try {
      // No inherited execArgv: the entry registers its own loader, whatever runs this process.
      worker = new Worker(this.entry, { execArgv: [] });
    } catch {
      return undefined;
    }
    worker.unref();
    worker.on('message', (reply: ScanReply) => {
      const resolve = this.#pending.get(reply.id);
      if (resolve === undefined) return;
      this.#pending.delete(reply.id);
      if (this.#pending.size === 0) worker.unref();
      if (reply.transfer === null) this.stats.declined++;
      else this.stats.served++;
      resolve(reply.transfer ?? undefined);
    });
    worker.on('error', () => this.#settleAll(worker));
    worker.on('exit', () => this.#settleAll(worker));
    this.#worker = worker;
    return worker;
  }

  /** Forgets `worker` (dead or closing) and answers every outstanding scan with undefined. */
  #settleAll(worker: Worker | undefined): void {
    if (worker === undefined || this.#worker !== worker) return;
    this.#worker = undefined;
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    this.stats.declined += pending.length;
    for (const resolve of pending) resolve(undefined);
  }
}
