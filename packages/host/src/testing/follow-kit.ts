import { SessionError, SessionId, SessionSeq, type SessionEvent } from '@strand/session';
import { FollowerQueue, type Followed, type FollowedLookup } from '../follow/follower-queue.js';
import type { Outbound } from '../follow/outbound.js';

/** An outbound socket that records what it was sent; tests flip `open` and `bufferedAmount`. */
export interface FakeOutbound extends Outbound {
  open: boolean;
  bufferedAmount: number;
  readonly sent: string[];
}

export function fakeOutbound(): FakeOutbound {
  const sent: string[] = [];
  return { open: true, bufferedAmount: 0, sent, send: (text) => void sent.push(text) };
}

/** An opened follower of `sessionId` on its own fake socket; `dropped` counts its self-drops. */
export function openFollower(
  followId: string,
  sessionId = SessionId('s1'),
  maxQueuedBytes = 1000,
): { readonly queue: FollowerQueue; readonly out: FakeOutbound; readonly drops: FollowerQueue[] } {
  const out = fakeOutbound();
  const drops: FollowerQueue[] = [];
  const queue = new FollowerQueue({ followId, generation: 1, sessionId }, out, maxQueuedBytes, (q) =>
    drops.push(q),
  );
  queue.open();
  return { queue, out, drops };
}

/** A lookup over fixed sessions, as the hub's fanouts look to the feeds. */
export function followedBy(entries: Record<string, Followed>): FollowedLookup {
  return (id) => entries[id];
}

/** `count` events from seq `first` on; the feeds read only `seq` and `type`. */
export function someEvents(first: number, count: number, type = 'note'): SessionEvent[] {
  return Array.from({ length: count }, (_, i) => ({
    type,
    seq: SessionSeq(first + i),
    time: 0,
    data: null,
  }));
}

/** The parsed frames a fake socket was sent. */
export function framesOf(out: FakeOutbound): { method: string; params: Record<string, unknown> }[] {
  return out.sent.map((text) => JSON.parse(text) as { method: string; params: Record<string, unknown> });
}

/** A durable write failure as a live session reports it; `cause` is what the disk said. */
export function writeFailure(message: string, cause?: unknown): SessionError {
  return new SessionError('SESSION_WRITE_FAILED', message, { cause });
}
