import { SessionQueryError } from './errors.js';

/** Limits the events returned — never the projection cut. */
export type ObservationWindow =
  /** The last `last` events (the tail a conversation view shows first). */
  | { readonly last: number }
  /** Events with `fromSeq <= seq < toSeq` (older history, gap repair). */
  | { readonly fromSeq: number; readonly toSeq?: number };

/** True for a window that selects no events at any cursor (`{ last: 0 }`, or an empty seq range). */
export function selectsNoEvents(window: ObservationWindow | undefined): boolean {
  if (window === undefined) return false;
  return 'last' in window ? window.last === 0 : window.toSeq !== undefined && window.toSeq <= window.fromSeq;
}

/** The [start, end) seqs a window selects at `cursor`. */
export function windowBounds(window: ObservationWindow | undefined, cursor: number): [number, number] {
  if (window === undefined) return [0, cursor];
  if ('last' in window) return [Math.max(0, cursor - window.last), cursor];
  const end = Math.min(cursor, window.toSeq ?? cursor);
  return [Math.min(window.fromSeq, end), end];
}

export function validateWindow(window: ObservationWindow | undefined, id: string): void {
  if (window === undefined) return;
  const ok =
    'last' in window
      ? Number.isSafeInteger(window.last) && window.last >= 0
      : Number.isSafeInteger(window.fromSeq) &&
        window.fromSeq >= 0 &&
        (window.toSeq === undefined ||
          (Number.isSafeInteger(window.toSeq) && window.toSeq >= window.fromSeq));
  if (!ok)
    throw new SessionQueryError(
      'SESSION_QUERY_INVALID_QUERY',
      `invalid observation window ${JSON.stringify(window)}`,
      { sessionId: id },
    );
}
