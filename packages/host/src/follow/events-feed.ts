import type { Session, SessionEvent } from '@strand/session';
import type { FollowerQueue } from './follower-queue.js';

/** What a follower expecting `nextSeq` gets of a batch of `length` events starting at `first`. */
export type EventsStep =
  /** Nothing: it holds the whole batch already (a backfill overlapped). */
  | { readonly kind: 'skip' }
  /** The batch starts past what it holds: seqs would not be contiguous. */
  | { readonly kind: 'gap' }
  /** The batch from `offset` on (0: the shared JSON fits); it then expects `nextSeq`. */
  | { readonly kind: 'send'; readonly offset: number; readonly nextSeq: number };

export function eventsStep(nextSeq: number, first: number, length: number): EventsStep {
  const last = first + length;
  if (length === 0 || last <= nextSeq) return { kind: 'skip' };
  if (nextSeq < first) return { kind: 'gap' };
  return { kind: 'send', offset: nextSeq - first, nextSeq: last };
}

/**
 * `follow.events`: durable batches of the session (`Session.subscribe`, or a remote tail's reads)
 * and backfills from its durable prefix, so no follower ever holds an event a failed write or a
 * crash could take back. Each follower gets contiguous seqs from its snapshot's cursor on; a
 * batch is serialized once for every follower it fits whole, and a follower it would leave a gap
 * in gets `follow.resync`.
 */
export class EventsFeed {
  /** The next seq each follower must receive. */
  readonly #nextSeq = new WeakMap<FollowerQueue, number>();

  /** `follower` holds every event before `cursor` (its snapshot). */
  begin(follower: FollowerQueue, cursor: number): void {
    this.#nextSeq.set(follower, cursor);
  }

  /** Whether `follower` was sent the event at `seq`. */
  holds(follower: FollowerQueue, seq: number): boolean {
    return this.#at(follower) > seq;
  }

  /** The lowest next seq among `followers`; undefined when there are none. */
  lowest(followers: Iterable<FollowerQueue>): number | undefined {
    let lowest: number | undefined;
    for (const follower of followers) {
      const at = this.#at(follower);
      if (lowest === undefined || at < lowest) lowest = at;
    }
    return lowest;
  }

  /** Appends between the follower's cut and the live session's durable cut. */
  backfill(follower: FollowerQueue, session: Pick<Session, 'cursor' | 'events'>): void {
    const nextSeq = this.#at(follower);
    if (session.cursor <= nextSeq) return;
    const missing = session.events.slice(nextSeq);
    this.#deliver(follower, missing, JSON.stringify(missing));
  }

  batch(followers: Iterable<FollowerQueue>, batch: readonly SessionEvent[]): void {
    const json = JSON.stringify(batch);
    for (const follower of followers) this.#deliver(follower, batch, json);
  }

  #deliver(follower: FollowerQueue, batch: readonly SessionEvent[], json: string): void {
    const step = eventsStep(this.#at(follower), batch[0]?.seq ?? 0, batch.length);
    if (step.kind === 'skip') return;
    if (step.kind === 'gap') return follower.resync('gap');
    // A slice keeps seqs contiguous for this follower; the shared JSON no longer fits it.
    const events = step.offset === 0 ? json : JSON.stringify(batch.slice(step.offset));
    this.#nextSeq.set(follower, step.nextSeq);
    follower.push(follower.frame('follow.events', `,"events":${events}`));
  }

  #at(follower: FollowerQueue): number {
    return this.#nextSeq.get(follower) ?? 0;
  }
}
