import type { FollowFrame } from './follow-frames.js';
import { isFor, type Carrier } from './shown-generation.js';

/** Frames held for an opening, newest first: holding one more shares the rest (no copy per frame). */
interface HeldFrames {
  readonly frame: FollowFrame;
  readonly earlier: HeldFrames | null;
  readonly count: number;
}

/**
 * A `session.follow` in flight on socket `epoch`, and the frames that arrived before its snapshot
 * was processed. Immutable like the rest of the follow state: holding a frame makes a new value
 * with the same `id`, so an opening is recognised by its id, not by the object.
 */
export interface Opening {
  /** Unique per follower: which `session.follow` this is. */
  readonly id: number;
  readonly epoch: number;
  readonly held: HeldFrames | null;
  /** A frame arrived when `held` was full: it was dropped, so the accepted generation re-opens. */
  readonly overflowed: boolean;
}

export function newOpening(id: number, epoch: number): Opening {
  return { id, epoch, held: null, overflowed: false };
}

/** Whether `current` (the state's opening) is still the `session.follow` `opening` was made for. */
export function isSameOpening(current: Opening | null, opening: Opening): boolean {
  return current !== null && current.id === opening.id;
}

/** `opening` holding `frame` too, or marked overflowed when it already holds `maxHeld`. */
export function holding(opening: Opening, frame: FollowFrame, maxHeld: number): Opening {
  const count = opening.held?.count ?? 0;
  if (count >= maxHeld) return opening.overflowed ? opening : { ...opening, overflowed: true };
  return { ...opening, held: { frame, earlier: opening.held, count: count + 1 } };
}

/** The frames `opening` holds, in the order they arrived. */
export function heldFrames(opening: Opening): readonly FollowFrame[] {
  const frames: FollowFrame[] = [];
  for (let node = opening.held; node !== null; node = node.earlier) frames.push(node.frame);
  return frames.reverse();
}

export type FrameRoute =
  /** The shown generation's frame: apply it (in queue order). */
  | { readonly kind: 'apply'; readonly carrier: Carrier }
  /** Possibly the opening generation's frame: hold it until its snapshot is accepted. */
  | { readonly kind: 'hold'; readonly opening: Opening }
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
): FrameRoute {
  if (carrier !== null && isFor(frame, carrier, epoch)) return { kind: 'apply', carrier };
  if (opening === null || opening.epoch !== epoch) return { kind: 'ignore' };
  return { kind: 'hold', opening };
}
