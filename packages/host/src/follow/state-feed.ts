import type { FollowStopped } from '@strand/protocol';
import type { Session, SessionId } from '@strand/session';
import type { FollowedLookup, FollowerQueue, LiveSession } from './follower-queue.js';

/**
 * `follow.state`: whether the session is live here, busy, and stopped. A session whose durable
 * write failed says `stopped` in every state frame — to a follower that comes later too — until it
 * is attached again: the stop is remembered past the detach (the controller evicts a stopped
 * agent) and forgotten when the session is reopened from disk by the next command.
 */
export class StateFeed {
  readonly #followed: FollowedLookup;
  readonly #isBusy: (id: SessionId) => boolean;
  readonly #stopped = new Map<SessionId, FollowStopped>();

  constructor(followed: FollowedLookup, isBusy: (id: SessionId) => boolean) {
    this.#followed = followed;
    this.#isBusy = isBusy;
  }

  /** Followed or not: a stop outlives the detach, an attach without a failure (a reopen) ends it. */
  remember(session: LiveSession): void {
    const stopped = stoppedBy(session);
    if (stopped === undefined) this.#stopped.delete(session.id);
    else this.#stopped.set(session.id, stopped);
  }

  /** The live session attached, or stopped: tell every follower. */
  live(session: LiveSession): void {
    for (const follower of this.#followed(session.id)?.followers ?? []) this.#tellLive(follower, session);
  }

  /** Detached: cold here, stopped if it was. */
  cold(sessionId: SessionId): void {
    for (const follower of this.#followed(sessionId)?.followers ?? []) this.#tellCold(follower);
  }

  /** A new follower of a live session hears only a stop (an attach tells every follower). */
  joinedLive(follower: FollowerQueue, session: LiveSession): void {
    if (session.writeFailure !== undefined) this.#tellLive(follower, session);
  }

  /** A new follower of a cold session hears only a remembered stop. */
  joinedCold(follower: FollowerQueue): void {
    if (this.#stopped.has(follower.sessionId)) this.#tellCold(follower);
  }

  busyChanged(sessionId: SessionId, busy: boolean): void {
    const followed = this.#followed(sessionId);
    if (followed === undefined) return;
    const session = followed.session;
    const stopped = session === undefined ? this.#stopped.get(sessionId) : stoppedBy(session);
    for (const follower of followed.followers)
      follower.push(stateFrame(follower, session !== undefined, busy, stopped));
  }

  #tellLive(follower: FollowerQueue, session: LiveSession): void {
    follower.push(stateFrame(follower, true, this.#isBusy(session.id), stoppedBy(session)));
  }

  #tellCold(follower: FollowerQueue): void {
    follower.push(stateFrame(follower, false, false, this.#stopped.get(follower.sessionId)));
  }
}

function stateFrame(
  follower: FollowerQueue,
  live: boolean,
  busy: boolean,
  stopped: FollowStopped | undefined,
): string {
  const why = stopped === undefined ? '' : `,"stopped":${JSON.stringify(stopped)}`;
  return follower.frame('follow.state', `,"live":${live},"busy":${busy}${why}`);
}

/**
 * The `stopped` of a state frame: present once the session's durable write failed. The message
 * names the OS error code (ENOSPC, EACCES, EIO…) when there is one, never a path.
 */
export function stoppedBy(session: Pick<Session, 'writeFailure'>): FollowStopped | undefined {
  const failure = session.writeFailure;
  if (failure === undefined) return undefined;
  const os = osErrorCode(failure);
  return {
    code: 'SESSION_WRITE_FAILED',
    message: os === undefined ? failure.message : `${failure.message} (${os})`,
  };
}

/** The deepest OS code (`E…`) along the cause chain (the root cause); a long chain is cut off. */
function osErrorCode(error: unknown): string | undefined {
  let found: string | undefined;
  for (let at = error, depth = 0; at instanceof Error && depth < 8; at = at.cause, depth++) {
    const code = (at as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) found = code;
  }
  return found;
}
