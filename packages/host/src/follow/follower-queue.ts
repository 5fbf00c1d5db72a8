import type { Session, SessionId } from '@strand/session';
import type { Outbound } from './outbound.js';

/** Who a follower is on the wire: every frame of it names this follow and generation. */
export interface FollowerIdentity {
  readonly followId: string;
  readonly generation: number;
  readonly sessionId: SessionId;
}

/**
 * The one ordered queue of one follower: every feed's frames for it go through `push`, so they
 * reach the socket in the order they were pushed, whichever feed pushed them. Frames are held
 * until `open` (the snapshot, the RPC result, is on the wire first). A connection with more than
 * `maxQueuedBytes` queued gets `follow.resync` and the follower is dropped — memory stays bounded;
 * the client re-follows for a new generation. Nothing is sent after a drop.
 */
export class FollowerQueue implements FollowerIdentity {
  readonly followId: string;
  readonly generation: number;
  readonly sessionId: SessionId;
  readonly out: Outbound;
  readonly #maxQueuedBytes: number;
  /** Told once when the queue drops itself (socket closed, slow consumer, gap). */
  readonly #onDrop: (queue: FollowerQueue) => void;
  /** Frames waiting for `open`; undefined once open. */
  #held: string[] | undefined = [];
  #dropped = false;

  constructor(
    identity: FollowerIdentity,
    out: Outbound,
    maxQueuedBytes: number,
    onDrop: (queue: FollowerQueue) => void,
  ) {
    this.followId = identity.followId;
    this.generation = identity.generation;
    this.sessionId = identity.sessionId;
    this.out = out;
    this.#maxQueuedBytes = maxQueuedBytes;
    this.#onDrop = onDrop;
  }

  get dropped(): boolean {
    return this.#dropped;
  }

  /**
   * A `follow.*` notification for this follower. `fields` are the params after `followId` and
   * `generation` (each starting with a comma), already JSON: a feed serializes what every follower
   * shares once and wraps it per follower by concatenation.
   */
  frame(method: string, fields: string): string {
    return `{"jsonrpc":"2.0","method":"${method}","params":{"followId":"${this.followId}","generation":${this.generation}${fields}}}`;
  }

  push(text: string): void {
    if (this.#dropped) return;
    if (this.#held !== undefined) this.#held.push(text);
    else this.#send(text);
  }

  /** The snapshot is on the wire: release the held frames in order. */
  open(): void {
    const held = this.#held;
    if (this.#dropped || held === undefined) return;
    this.#held = undefined;
    for (const text of held) {
      if (this.#dropped) return;
      this.#send(text);
    }
  }

  /** Ends the follow with `follow.resync` (the client re-follows for a new generation). */
  resync(reason: string): void {
    if (this.#dropped) return;
    this.#lose();
    if (this.out.open) this.out.send(this.frame('follow.resync', `,"reason":${JSON.stringify(reason)}`));
  }

  /** Stops the queue without telling anyone (the hub removed the follower). */
  drop(): void {
    this.#dropped = true;
    this.#held = undefined;
  }

  #send(text: string): void {
    if (!this.out.open) return this.#lose();
    if (this.out.bufferedAmount > this.#maxQueuedBytes) return this.resync('slow-consumer');
    this.out.send(text);
  }

  #lose(): void {
    this.drop();
    this.#onDrop(this);
  }
}

/** What the feeds read of a live session. */
export type LiveSession = Pick<Session, 'id' | 'writeFailure'>;

/** The followers of one session as the feeds see them, and its live session here if any. */
export interface Followed {
  readonly followers: ReadonlySet<FollowerQueue>;
  readonly session: LiveSession | undefined;
}

/** The hub's followers by session; undefined for a session nobody follows here. */
export type FollowedLookup = (sessionId: SessionId) => Followed | undefined;
