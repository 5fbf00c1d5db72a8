import type { FollowSnapshot } from '@strand/protocol';
import { windowEnd, type EventWindow } from './event-window.js';
import type { FollowFrame } from './follow-frames.js';
import type { ShownGeneration } from './follow-view.js';

/** The generation frames apply to: a follow id on one socket (`epoch`). */
export interface Carrier {
  readonly followId: string;
  readonly generation: number;
  readonly epoch: number;
}

export function isFor(frame: FollowFrame, carrier: Carrier, epoch: number): boolean {
  return (
    epoch === carrier.epoch && frame.followId === carrier.followId && frame.generation === carrier.generation
  );
}

export function windowOf(shown: ShownGeneration): EventWindow {
  return { firstSeq: shown.firstSeq, events: shown.events };
}

export function withWindow(shown: ShownGeneration, window: EventWindow): ShownGeneration {
  return { ...shown, firstSeq: window.firstSeq, cursor: windowEnd(window), events: window.events };
}

/** A validated snapshot, shown with `window` (its own events, possibly joined to older ones). */
export function shownFrom(snapshot: FollowSnapshot, window: EventWindow): ShownGeneration {
  return withWindow(
    {
      followId: snapshot.followId,
      generation: snapshot.generation,
      header: snapshot.header,
      inheritedEventCount: snapshot.inheritedEventCount,
      firstSeq: snapshot.firstSeq,
      cursor: snapshot.cursor,
      events: snapshot.events,
      live: snapshot.live,
      busy: snapshot.busy,
    },
    window,
  );
}
