import type { WireEvent } from '@strand/protocol';

/**
 * The follower's event window as a pure value: events `[firstSeq, firstSeq + events.length)`,
 * always contiguous. Every batch and page handed in here was checked where it entered (the
 * connection's result schemas, the follow notification schemas: wire events, contiguous seqs), so
 * the functions below trust their types and only place the events. Events are immutable by seq (the log is append-only), so two copies of one
 * seq are the same event and de-duplication keeps the one already held.
 */
export interface EventWindow {
  readonly firstSeq: number;
  readonly events: readonly WireEvent[];
}

export function windowEnd(window: EventWindow): number {
  return window.firstSeq + window.events.length;
}

export type AppendResult =
  /** New events joined the end; `count` of them (duplicates at the front dropped). */
  | { readonly kind: 'appended'; readonly window: EventWindow; readonly count: number }
  /** Every event was already held. */
  | { readonly kind: 'duplicate' }
  /** The first new event is beyond the window end: `[expected, got)` is missing. */
  | { readonly kind: 'gap'; readonly expected: number; readonly got: number };

/** Appends a contiguous batch of events (a live frame or a page) at the window's end. */
export function appendEvents(window: EventWindow, events: readonly WireEvent[]): AppendResult {
  if (events.length === 0) return { kind: 'duplicate' };
  const firstSeq = events[0]?.seq ?? 0;
  const end = windowEnd(window);
  if (firstSeq > end) return { kind: 'gap', expected: end, got: firstSeq };
  const fresh = events.slice(end - firstSeq);
  if (fresh.length === 0) return { kind: 'duplicate' };
  return {
    kind: 'appended',
    window: { firstSeq: window.firstSeq, events: [...window.events, ...fresh] },
    count: fresh.length,
  };
}

export type JoinResult =
  /** The snapshot's window touches or overlaps the previous one: older events are kept. */
  | { readonly kind: 'joined'; readonly window: EventWindow }
  /** No previous window, or one that ends beyond the new cursor: the snapshot's window alone. */
  | { readonly kind: 'replaced'; readonly window: EventWindow }
  /** Events `[from, to)` lie between the previous window's end and the snapshot's first event. */
  | { readonly kind: 'gap'; readonly from: number; readonly to: number };

/**
 * Joins a validated snapshot window onto the previous generation's window. The snapshot is the
 * authority from its `firstSeq` on; a previous window longer than the new log can only come from
 * another log (the session was recreated) and is dropped.
 */
export function joinSnapshot(previous: EventWindow | null, next: EventWindow): JoinResult {
  if (previous === null || windowEnd(previous) > windowEnd(next)) return { kind: 'replaced', window: next };
  const previousEnd = windowEnd(previous);
  if (next.firstSeq > previousEnd) return { kind: 'gap', from: previousEnd, to: next.firstSeq };
  if (next.firstSeq <= previous.firstSeq) return { kind: 'joined', window: next };
  const kept = previous.events.slice(0, next.firstSeq - previous.firstSeq);
  return { kind: 'joined', window: { firstSeq: previous.firstSeq, events: [...kept, ...next.events] } };
}

export type PrependResult =
  | { readonly kind: 'prepended'; readonly window: EventWindow; readonly count: number }
  /** The page holds nothing before the window. */
  | { readonly kind: 'empty' }
  /** The page's events before the window do not end right before it. */
  | { readonly kind: 'disjoint'; readonly reason: string };

/** Puts an older page (`session.page { beforeSeq }`) in front of the window. */
export function prependOlder(
  window: EventWindow,
  page: { readonly firstSeq: number; readonly events: readonly WireEvent[] },
): PrependResult {
  const older = page.events.slice(0, Math.max(0, window.firstSeq - page.firstSeq));
  if (older.length === 0) return { kind: 'empty' };
  const lastSeq = page.firstSeq + older.length - 1;
  if (lastSeq !== window.firstSeq - 1) {
    return {
      kind: 'disjoint',
      reason: `expected the page to end at seq ${window.firstSeq - 1}, got ${lastSeq}`,
    };
  }
  return {
    kind: 'prepended',
    window: { firstSeq: page.firstSeq, events: [...older, ...window.events] },
    count: older.length,
  };
}
