import type { ShownGeneration } from '@strand/client';
import type { WireEvent } from '@strand/protocol';

/**
 * What one view of the follower adds to `strand follow`'s output, given the next seq it has not
 * printed yet (`undefined` before the first generation):
 * - `snapshot`: the first generation shown, printed whole (header, projections, its window);
 * - `events`: the events at or past `next` (a reconnect's or a resync's new generation repeats
 *   the ones already printed: they are left out); `skipped` when the new window starts past
 *   `next`, a hole the follower chose not to page (larger than its `maxGapFill`);
 * - `nothing`: no new event (a phase change, a projection frame, a window that did not grow).
 * Each event is printed once, in seq order, whatever generations the wire went through.
 */
export type FollowStep =
  | { readonly kind: 'nothing' }
  | { readonly kind: 'snapshot'; readonly next: number }
  | {
      readonly kind: 'events';
      readonly next: number;
      readonly events: readonly WireEvent[];
      readonly skipped?: { readonly from: number; readonly to: number };
    };

export function followStep(next: number | undefined, shown: ShownGeneration | null): FollowStep {
  if (shown === null) return { kind: 'nothing' };
  if (next === undefined) return { kind: 'snapshot', next: shown.cursor };
  if (shown.cursor <= next) return { kind: 'nothing' };
  // The window holds exactly [firstSeq, cursor), contiguous: the new events are a suffix of it.
  const events = shown.events.slice(Math.max(0, next - shown.firstSeq));
  return shown.firstSeq > next
    ? { kind: 'events', next: shown.cursor, events, skipped: { from: next, to: shown.firstSeq - 1 } }
    : { kind: 'events', next: shown.cursor, events };
}
