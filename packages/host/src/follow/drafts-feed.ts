import type { SessionEvent, SessionId } from '@strand/session';
import { DraftThrottle, type DraftClock } from './draft-throttle.js';
import type { EventsFeed } from './events-feed.js';
import type { FollowedLookup } from './follower-queue.js';

/** How `follow.draft` is paced: one per `intervalMs` per session at most (so per follow too). */
export interface DraftPacing {
  readonly intervalMs: number;
  readonly clock: DraftClock;
}

/** Events after which the running step's draft is settled: its message, or the step/turn closing. */
const STEP_SETTLING = new Set(['assistant/message', 'step/end', 'turn/end']);

/**
 * `follow.draft`, the one transient frame: the running step's text so far, from the agent
 * (`AgentPort.onDraft`), never from the log. It goes only to followers already sent the step's
 * durable `step/start` (a draft never points past what a follower was sent), paced per session
 * (`DraftThrottle`), and a pending one is dropped once the step's `assistant/message` (or its
 * closing) is delivered, or the session stops.
 */
export class DraftsFeed {
  readonly #followed: FollowedLookup;
  readonly #events: Pick<EventsFeed, 'holds'>;
  readonly #pacing: DraftPacing;
  /** Per followed session, made on its first draft. */
  readonly #throttles = new Map<SessionId, DraftThrottle>();

  constructor(followed: FollowedLookup, events: Pick<EventsFeed, 'holds'>, pacing: DraftPacing) {
    this.#followed = followed;
    this.#events = events;
    this.#pacing = pacing;
  }

  /** A draft of `sessionId`'s running step, from its agent here. */
  offer(sessionId: SessionId, step: number, text: string): void {
    const session = this.#followed(sessionId)?.session;
    // A stopped session's step will never be written: what its model still streams until the
    // turn's abort lands is not shown.
    if (session === undefined || session.writeFailure !== undefined) return;
    let throttle = this.#throttles.get(sessionId);
    if (throttle === undefined) {
      throttle = new DraftThrottle(
        (paced, latest) => this.#send(sessionId, paced, latest),
        this.#pacing.intervalMs,
        this.#pacing.clock,
      );
      this.#throttles.set(sessionId, throttle);
    }
    throttle.offer(step, text);
  }

  /** A durable batch is about to go out: once the step settles, a draft after it would be stale. */
  delivering(sessionId: SessionId, batch: readonly SessionEvent[]): void {
    if (batch.some((event) => STEP_SETTLING.has(event.type))) this.cancel(sessionId);
  }

  /** Drops the pending draft; the pacing goes on (the session detached). */
  cancel(sessionId: SessionId): void {
    this.#throttles.get(sessionId)?.cancel();
  }

  /** Drops the pending draft and the pacing (the session stopped, or nobody follows it). */
  forget(sessionId: SessionId): void {
    this.cancel(sessionId);
    this.#throttles.delete(sessionId);
  }

  close(): void {
    for (const throttle of this.#throttles.values()) throttle.cancel();
    this.#throttles.clear();
  }

  #send(sessionId: SessionId, step: number, text: string): void {
    const fields = `,"step":${step},"text":${JSON.stringify(text)}`;
    for (const follower of this.#followed(sessionId)?.followers ?? [])
      if (this.#events.holds(follower, step)) follower.push(follower.frame('follow.draft', fields));
  }
}
