/** A queue cursor's shared cells, as they cross a worker boundary (a `SharedArrayBuffer` is shared, not copied). */
export interface SharedCursor {
  readonly cells: SharedArrayBuffer;
  readonly length: number;
}

// The cells: the index of the next file to take, and a stop flag.
const NEXT = 0;
const STOPPED = 1;

/**
 * The next file of one run's queue, taken by every lane — worker threads included — from one
 * atomic counter in shared memory. A lane takes its next file itself the moment a slot is free:
 * a worker never waits for the coordinating thread to hand it one (that thread writes the cache
 * rows in bursts of tens of milliseconds, during which a worker fed by messages ran dry).
 */
export class QueueCursor {
  readonly #cells: Int32Array;
  readonly #stopped: () => boolean;

  private constructor(
    /** How many files the queue holds. */
    readonly length: number,
    cells: SharedArrayBuffer,
    stopped: () => boolean,
  ) {
    this.#cells = new Int32Array(cells);
    this.#stopped = stopped;
  }

  /**
   * A cursor over a queue of `length` files. `stopped` is asked, in this thread, before each file
   * this thread takes; a lane in another thread sees a stop once this thread has seen it (`stop`).
   */
  static create(length: number, stopped: () => boolean = () => false): QueueCursor {
    return new QueueCursor(length, new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT), stopped);
  }

  /** The same cursor in the thread `shared` was sent to. */
  static attach(shared: SharedCursor): QueueCursor {
    return new QueueCursor(shared.length, shared.cells, () => false);
  }

  get shared(): SharedCursor {
    return { cells: this.#cells.buffer as SharedArrayBuffer, length: this.length };
  }

  /** The index of a file no lane has taken, or undefined once every file is taken or the queue stopped. */
  take(): number | undefined {
    if (this.#stopped()) this.stop();
    if (Atomics.load(this.#cells, STOPPED) !== 0) return undefined;
    const index = Atomics.add(this.#cells, NEXT, 1);
    return index < this.length ? index : undefined;
  }

  /** No lane takes another file; the files in flight finish. */
  stop(): void {
    Atomics.store(this.#cells, STOPPED, 1);
  }

  /** How many files were taken: exactly the indices below it (some may still be in flight). */
  get taken(): number {
    return Math.min(Atomics.load(this.#cells, NEXT), this.length);
  }
}
