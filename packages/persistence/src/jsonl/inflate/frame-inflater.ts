import { Worker } from 'node:worker_threads';
import { INFLATE_WORKER } from './inflate-worker.mjs';

/** One zstd frame of a group: its compressed length and the events it must hold. */
export interface InflateFrame {
  readonly len: number;
  readonly count: number;
}

/** What the worker hands back for a group (see inflate-worker.mjs). */
export interface InflatedGroup {
  /** `[e0,e1,…]` over the first `done` frames, or null when they hold no event. */
  readonly text: string | null;
  readonly done: number;
  /** The first frame that failed (bad zstd, checksum, line count), if any. */
  readonly error: { readonly index: number; readonly message: string } | null;
}

interface Pending {
  resolve(group: InflatedGroup): void;
  reject(error: Error): void;
}

/**
 * The client side of the inflate worker: one worker per process, shared by every cold read, so a
 * large log's decompression runs on the second core while the main thread parses what is already
 * inflated. Requests are answered in order. The worker holds the process open only while a
 * request is pending. If it cannot start or dies, `FrameInflater.shared()` returns undefined from
 * then on and readers fall back to decoding on the main thread — slower, never wrong.
 */
export class FrameInflater {
  static #shared: FrameInflater | undefined;
  static #unavailable = false;

  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  #nextId = 0;
  #failed: Error | undefined;
  /** Groups handed to the worker so far (lets tests see that large reads really go off-thread). */
  groupsSent = 0;

  private constructor() {
    this.#worker = new Worker(new URL('./inflate-worker.mjs', import.meta.url), {
      workerData: { [INFLATE_WORKER]: true },
      resourceLimits: { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 256 },
    });
    this.#worker.unref();
    this.#worker.on('message', (reply: InflatedGroup & { id: number }) => {
      const pending = this.#pending.get(reply.id);
      if (pending === undefined) return;
      this.#pending.delete(reply.id);
      if (this.#pending.size === 0) this.#worker.unref();
      pending.resolve({ text: reply.text, done: reply.done, error: reply.error });
    });
    const fail = (error: Error): void => {
      this.#failed ??= error;
      FrameInflater.#unavailable = true;
      if (FrameInflater.#shared === this) FrameInflater.#shared = undefined;
      for (const pending of this.#pending.values()) pending.reject(this.#failed);
      this.#pending.clear();
    };
    this.#worker.on('error', fail);
    this.#worker.on('exit', (code) => fail(new Error(`inflate worker exited with code ${code}`)));
  }

  /** The process-wide inflater, started on first use; undefined once it has failed. */
  static shared(): FrameInflater | undefined {
    if (FrameInflater.#unavailable) return undefined;
    try {
      FrameInflater.#shared ??= new FrameInflater();
    } catch {
      FrameInflater.#unavailable = true;
    }
    return FrameInflater.#shared;
  }

  /**
   * Inflates one group. `data` is moved to the worker (its buffer is transferred, so the caller
   * must not reuse it). Rejects only if the worker itself fails.
   */
  inflate(data: Uint8Array, frames: readonly InflateFrame[]): Promise<InflatedGroup> {
    if (this.#failed !== undefined) return Promise.reject(this.#failed);
    const id = this.#nextId++;
    this.groupsSent++;
    return new Promise<InflatedGroup>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      if (this.#pending.size === 1) this.#worker.ref();
      this.#worker.postMessage({ id, data, frames }, [data.buffer as ArrayBuffer]);
    });
  }

  /** Test hook: stops the worker as a crash would, so callers' fallbacks can be exercised. */
  async terminateForTest(): Promise<void> {
    await this.#worker.terminate();
  }

  /** Test hook: forget a failed worker so the next read starts a new one. */
  static resetForTest(): void {
    FrameInflater.#unavailable = false;
    FrameInflater.#shared = undefined;
  }
}
