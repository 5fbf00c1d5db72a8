import type { FollowFrame } from './follow-frames.js';
import { isFor, type Carrier } from './shown-generation.js';

/** A `session.follow` in flight on socket `epoch`, and the frames that arrived before its snapshot was processed. */
export interface Opening {
  readonly epoch: number;
  readonly buffered: FollowFrame[];
  overflowed: boolean;
}

export type FrameRoute =
  /** The shown generation's frame: apply it (in queue order). */
  | { readonly kind: 'apply'; readonly carrier: Carrier }
  /** Possibly the opening generation's frame: hold it until its snapshot is accepted. */
  | { readonly kind: 'buffer'; readonly opening: Opening }
  /** It would be held, but the buffer is full: drop it and re-open once the snapshot is accepted. */
  | { readonly kind: 'overflow'; readonly opening: Opening }
  /** An older generation's, another socket's, or another follower's frame. */
  | { readonly kind: 'ignore' };

/**
 * Where a frame received on socket `epoch` goes. A frame's follow id is unknown until its snapshot
 * is processed, so while a follow is in flight on the same socket every frame not of the shown
 * generation is held; the snapshot then keeps those with its follow id and generation.
 */
export function routeFrame(
  frame: FollowFrame,
  epoch: number,
  carrier: Carrier | null,
  opening: Opening | null,
  maxBuffered: number,
): FrameRoute {
  if (carrier !== null && isFor(frame, carrier, epoch)) return { kind: 'apply', carrier };
  if (opening === null || opening.epoch !== epoch) return { kind: 'ignore' };
  return opening.buffered.length < maxBuffered ? { kind: 'buffer', opening } : { kind: 'overflow', opening };
}
