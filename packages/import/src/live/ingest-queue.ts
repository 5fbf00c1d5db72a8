import { SerialQueue } from '@strand/session';

export interface IngestQueueOptions<T> {
  /** Quiet time after a change before the file is queued: a burst of writes is one read. */
  readonly settleMs: number;
  /**
   * Resolves once files may be read (the catch-up is done and the write side open); until then
   * what is queued waits. When it rejects, nothing queued is ever read.
   */
  readonly opened: Promise<unknown>;
  /** Reads one file; its failures are its own to report (a rejection goes to `onError`). */
  readonly read: (file: string, item: T) => Promise<void>;
  /** Called each time the queue empties after a read (the ledger is saved then, not per file). */
  readonly drained: () => Promise<void>;
  readonly onError: (error: unknown) => void;
}

/**
 * Live ingest's queue of changed files: a change waits `settleMs` for quiet, then the file is
 * queued once (a file already waiting is not queued twice) and read one at a time, in the order
 * the files changed, through a `SerialQueue`. A file that changes while it is read is queued again
 * and read once more afterwards.
 */
export class IngestQueue<T> {
  readonly #options: IngestQueueOptions<T>;
  readonly #serial: SerialQueue;
  readonly #opened: Promise<boolean>;
  readonly #queued = new Set<string>();
  readonly #pending = new Map<string, ReturnType<typeof setTimeout>>();
  /** Reads queued and not finished. */
  #steps = 0;
  #idleWaiters: (() => void)[] = [];
  #closed = false;

  constructor(options: IngestQueueOptions<T>) {
    this.#options = options;
    this.#serial = new SerialQueue(options.onError);
    this.#opened = options.opened.then(
      () => true,
      () => false,
    );
  }

  /** A change of `file`: read once no change followed for `settleMs`. */
  changed(file: string, item: T): void {
    if (this.#closed) return;
    const timer = this.#pending.get(file);
    if (timer !== undefined) clearTimeout(timer);
    this.#pending.set(
      file,
      setTimeout(() => {
        this.#pending.delete(file);
        this.enqueue(file, item);
      }, this.#options.settleMs),
    );
  }

  /** Queues `file` now, unless it is waiting already. */
  enqueue(file: string, item: T): void {
    if (this.#closed || this.#queued.has(file)) return;
    this.#queued.add(file);
    this.#steps++;
    this.#serial.enqueue(async () => {
      try {
        // Nothing is read before the queue is open; if it failed to open, nothing is read at all.
        const open = await this.#opened;
        // Out of the waiting set before the read: a change during the read queues it again.
        this.#queued.delete(file);
        if (!open || this.#closed) return;
        await this.#options.read(file, item);
        if (this.#queued.size === 0) await this.#options.drained();
      } finally {
        this.#steps--;
        this.#settleIdle();
      }
    });
  }

  /** Resolves when no file is waiting to be read, nor waiting for quiet. */
  idle(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.#idleWaiters.push(resolve);
      this.#settleIdle();
    });
  }

  /** Stops reading: changes are dropped from now on, and files still queued are not read. */
  stop(): void {
    this.#closed = true;
    for (const timer of this.#pending.values()) clearTimeout(timer);
    this.#pending.clear();
    this.#settleIdle();
  }

  /** Resolves once every read queued so far has finished (or been dropped). */
  settled(): Promise<void> {
    return this.#serial.settled();
  }

  #settleIdle(): void {
    if (this.#steps > 0 || this.#pending.size > 0) return;
    const waiters = this.#idleWaiters;
    this.#idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
