import type { SessionEvent, SessionWriter } from '@strand/session';

/**
 * A stand-in for persistence whose durability the test controls: a write becomes durable only
 * when settled, and `flush` resolves once everything written before the call is durable — the
 * contract `CacheWritePolicy` relies on. It records what is durable per session.
 */
export class FakeDurableLog {
  readonly durable = new Map<string, number>();
  flushCalls = 0;
  #issued = 0;
  #settled = 0;
  readonly #writes: {
    sessionId: string;
    upTo: number;
    resolve: () => void;
    reject: (e: Error) => void;
    ordinal: number;
  }[] = [];
  readonly #flushes: { ordinal: number; resolve: () => void; reject: (e: Error) => void }[] = [];
  failNextWrite = false;

  writerFor(sessionId: string): SessionWriter {
    let count = 0;
    return {
      write: (events: readonly SessionEvent[]) =>
        new Promise<void>((resolve, reject) => {
          count += events.length;
          if (this.failNextWrite) {
            this.failNextWrite = false;
            this.#issued++;
            this.#writes.push({ sessionId, upTo: -1, resolve, reject, ordinal: this.#issued });
            return;
          }
          this.#issued++;
          this.#writes.push({ sessionId, upTo: count, resolve, reject, ordinal: this.#issued });
        }),
    };
  }

  readonly flush = (): Promise<void> => {
    this.flushCalls++;
    const ordinal = this.#issued;
    if (ordinal <= this.#settled) return Promise.resolve();
    return new Promise((resolve, reject) => this.#flushes.push({ ordinal, resolve, reject }));
  };

  /** Makes the oldest `n` pending writes durable (all by default); a failed write rejects. */
  settle(n = Number.POSITIVE_INFINITY): void {
    let failed: Error | undefined;
    for (let i = 0; i < n && this.#writes.length > 0; i++) {
      const write = this.#writes.shift()!;
      this.#settled = write.ordinal;
      if (write.upTo < 0) {
        failed = new Error('disk full');
        write.reject(failed);
      } else {
        this.durable.set(write.sessionId, write.upTo);
        write.resolve();
      }
    }
    for (const flush of [...this.#flushes]) {
      if (flush.ordinal > this.#settled) continue;
      this.#flushes.splice(this.#flushes.indexOf(flush), 1);
      if (failed === undefined) flush.resolve();
      else flush.reject(failed);
    }
  }

  get pendingWrites(): number {
    return this.#writes.length;
  }
}

/** Timers fired by hand. */
export function manualTimers(): {
  set(cb: () => void, ms: number): unknown;
  clear(h: unknown): void;
  fire(): void;
  readonly armed: number;
} {
  const pending = new Map<number, () => void>();
  let next = 0;
  return {
    set(cb) {
      pending.set(++next, cb);
      return next;
    },
    clear: (handle) => pending.delete(handle as number),
    fire() {
      for (const [handle, cb] of [...pending]) {
        pending.delete(handle);
        cb();
      }
    },
    get armed() {
      return pending.size;
    },
  };
}
