import type { WireEvent } from '@strand/protocol';

/**
 * A `?seq=` target older than the follower's window is read directly — one `session.page` from a
 * little above it — instead of paging back from the end (50k events took 20 s). The page read is
 * an excerpt: shown alone while it ends before the follower's window, joined to it (and so to
 * live appends) once the two touch.
 */
export interface EventRun {
  readonly firstSeq: number;
  readonly events: readonly WireEvent[];
}

/** Events read above the target, so it is not the first row with nothing to read before it. */
export const TARGET_CONTEXT = 20;
/** Events one excerpt read asks for: the target's neighbourhood, a few screens. */
export const EXCERPT_PAGE = 200;

/** The `session.page` range that reads the target's neighbourhood. */
export function excerptRange(targetSeq: number): { readonly fromSeq: number; readonly limit: number } {
  return { fromSeq: Math.max(0, targetSeq - TARGET_CONTEXT), limit: EXCERPT_PAGE };
}

/** What the transcript shows: the excerpt alone (`detached`), or the excerpt joined to the window. */
export interface ShownRun extends EventRun {
  /** The excerpt ends before the window begins: events between them are not loaded. */
  readonly detached: boolean;
}

/**
 * The excerpt followed by the follower's window: joined when the excerpt reaches the window's
 * first event (each seq once, the window's copy kept for seqs both hold, since the window is the
 * one live appends apply to), else the excerpt alone.
 */
export function joinExcerpt(excerpt: EventRun, window: EventRun): ShownRun {
  const excerptEnd = excerpt.firstSeq + excerpt.events.length;
  if (excerptEnd < window.firstSeq) return { ...excerpt, detached: true };
  if (excerpt.firstSeq >= window.firstSeq) return { ...window, detached: false };
  const before = excerpt.events.slice(0, window.firstSeq - excerpt.firstSeq);
  return { firstSeq: excerpt.firstSeq, events: [...before, ...window.events], detached: false };
}

/** An older page (`session.page { beforeSeq: excerpt.firstSeq }`) put in front of the excerpt. */
export function prependPage(excerpt: EventRun, page: EventRun): EventRun {
  const older = page.events.filter((event) => event.seq < excerpt.firstSeq);
  if (older.length === 0) return excerpt;
  return { firstSeq: older[0]!.seq, events: [...older, ...excerpt.events] };
}
