import type { SessionEvent, SessionId } from '@strand/session';
import { seqConflict } from './persistence-errors.js';

/** What one durable write reports back to every append it carried. */
export interface WriteResult {
  readonly revision: string;
  readonly storedBytes: number;
}

/**
 * Writes one group durably: `events` are contiguous, `incarnation` (when given) must still be
 * the stored one. Resolves after COMMIT; rejects with a typed error, having written nothing.
 */
export type WriteGroup = (
  id: SessionId,
  events: readonly SessionEvent[],
  incarnation: string | undefined,
) => Promise<WriteResult>;

interface QueuedAppend {
  readonly events: readonly SessionEvent[];
  readonly incarnation: string | undefined;
  readonly resolve: (result: WriteResult) => void;
  readonly reject: (error: unknown) => void;
}

interface SessionQueue {
  readonly items: QueuedAppend[];
  readonly drained: Promise<void>;
}

/**
 * Orders the appends this process makes to each session and coalesces them (group commit).
 *
 * Invariants:
 * - Per session id, at most one write is in flight, and writes start in append order.
 * - A lone append starts writing at once; appends arriving while a write is in flight wait and
 *   then go together as ONE write (one transaction, one notice), like the file backends.
 * - An append whose first seq does not continue the group before it is refused
 *   ("expected N, got M") without reaching the database.
 * - When a write fails, every waiting append whose first seq lies beyond the failed group's first
 *   seq is refused too: it was built on the failed events. Appends at or before that seq do not
 *   depend on them and go on to the database, which judges them.
 * - An idle session holds no entry, so the map stays as small as the set of active writers.
 */
export class AppendQueues {
  readonly #queues = new Map<SessionId, SessionQueue>();

  readonly #write: WriteGroup;

  constructor(write: WriteGroup) {
    this.#write = write;
  }

  /** Queues `events` (non-empty, contiguous) for `id`; resolves when they are durable. */
  enqueue(id: SessionId, events: readonly SessionEvent[], incarnation?: string): Promise<WriteResult> {
    return new Promise<WriteResult>((resolve, reject) => {
      const item: QueuedAppend = { events, incarnation, resolve, reject };
      const queue = this.#queues.get(id);
      if (queue !== undefined) {
        queue.items.push(item);
        return;
      }
      const items = [item];
      this.#queues.set(id, { items, drained: this.#drain(id, items) });
    });
  }

  /** True while an append of this process to `id` is queued or in flight. */
  busy(id: SessionId): boolean {
    return this.#queues.has(id);
  }

  /** Resolves once nothing this process queued for `id` is in flight. */
  async idle(id: SessionId): Promise<void> {
    for (let queue = this.#queues.get(id); queue !== undefined; queue = this.#queues.get(id)) {
      await queue.drained;
    }
  }

  /** Resolves once every append queued before the call has settled. */
  async idleAll(): Promise<void> {
    while (this.#queues.size > 0) await Promise.all([...this.#queues.values()].map((q) => q.drained));
  }

  async #drain(id: SessionId, items: QueuedAppend[]): Promise<void> {
    // Yield once so appends issued in the same tick join the first write instead of waiting for it.
    await Promise.resolve();
    // Where the log ends after this drain's last successful write: the next write must start
    // there (unknown at first, and again after a failure).
    let end: number | undefined;
    try {
      while (items.length > 0) {
        const group = takeGroup(id, items, end);
        if (group.length === 0) continue;
        const first = group[0]!;
        const events = group.length === 1 ? first.events : group.flatMap((g) => g.events);
        const incarnation = group.find((g) => g.incarnation !== undefined)?.incarnation;
        try {
          const result = await this.#write(id, events, incarnation);
          end = first.events[0]!.seq + events.length;
          for (const g of group) g.resolve(result);
        } catch (error) {
          end = undefined;
          for (const g of group) g.reject(error);
          const failedFrom = first.events[0]!.seq;
          for (let i = items.length - 1; i >= 0; i--) {
            if (items[i]!.events[0]!.seq > failedFrom) items.splice(i, 1)[0]!.reject(error);
          }
        }
      }
    } finally {
      this.#queues.delete(id);
    }
  }
}

/**
 * Takes the next group off the front of `items`: the first append (which must start at `end`
 * when the previous write of this drain succeeded), then every following one that continues it
 * seq-wise and agrees on the required incarnation. An append that does not continue the log
 * before it is refused at once; one that requires another incarnation starts the next group.
 * Returns an empty group when the first append was refused.
 */
function takeGroup(id: SessionId, items: QueuedAppend[], end: number | undefined): QueuedAppend[] {
  const first = items.shift()!;
  if (end !== undefined && first.events[0]!.seq !== end) {
    first.reject(seqConflict(id, end, first.events[0]!.seq));
    return [];
  }
  const group = [first];
  let next = first.events[0]!.seq + first.events.length;
  let incarnation = first.incarnation;
  while (items.length > 0) {
    const candidate = items[0]!;
    if (
      candidate.incarnation !== undefined &&
      incarnation !== undefined &&
      candidate.incarnation !== incarnation
    )
      break;
    items.shift();
    const got = candidate.events[0]!.seq;
    if (got !== next) {
      candidate.reject(seqConflict(id, next, got));
      continue;
    }
    group.push(candidate);
    next += candidate.events.length;
    incarnation ??= candidate.incarnation;
  }
  return group;
}
