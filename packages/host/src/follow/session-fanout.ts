import type { Session, SessionEvent } from '@strand/session';
import type { Followed, FollowerQueue } from './follower-queue.js';
import type { RemoteTail } from './remote-tail.js';

/**
 * One followed session here: its followers and the one source they share — the live `Session`'s
 * durable batches and write failure while it is attached here, or else (with several hosts on one
 * database) a `RemoteTail` reading other hosts' appends from the log. Never both: going live drops
 * the tail, and a tail is made only while cold.
 */
export class SessionFanout implements Followed {
  readonly followers = new Set<FollowerQueue>();
  #session: Session | undefined;
  /** Stops both the durable-batch and the write-failure subscription of the live session. */
  #unsubscribe: (() => void) | undefined;
  #remote: RemoteTail | undefined;

  get session(): Session | undefined {
    return this.#session;
  }

  /** `session` attached here: subscribe to it instead of whatever was before. */
  live(session: Session, onBatch: (batch: readonly SessionEvent[]) => void, onFailure: () => void): void {
    this.#remote?.close();
    this.#remote = undefined;
    this.#unsubscribe?.();
    this.#session = session;
    const stopEvents = session.subscribe(onBatch);
    // A session that already stopped has nothing more to report.
    const stopFailures =
      session.writeFailure === undefined ? session.onWriteFailure(onFailure) : () => undefined;
    this.#unsubscribe = () => {
      stopEvents();
      stopFailures();
    };
  }

  /** The live session detached; returns it. */
  cold(): Session | undefined {
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    const session = this.#session;
    this.#session = undefined;
    return session;
  }

  /** Nudges the remote tail, made by `make` the first time (a catch-up read on subscribing). */
  pullRemote(make: () => RemoteTail): void {
    this.#remote ??= make();
    this.#remote.pull();
  }

  /** Nobody follows any more (or the hub closes). */
  close(): void {
    this.#unsubscribe?.();
    this.#remote?.close();
  }
}
