import type { SessionRow } from './session-rows.js';

/** A live session as the plan sees it. */
export interface LiveSubject {
  readonly incarnation: string | null;
  readonly length: number;
}

/** A persisted (not live) session as `persistence.list` reports it. */
export interface PersistedSubject {
  readonly incarnation: string;
  readonly revision: string;
}

export type Unchanged = { readonly kind: 'unchanged' };
/** Index the live session's in-memory events beyond `cut` (from 0 after a reset); no disk read. */
export type IndexMemoryPlan = { readonly kind: 'index-memory'; readonly reset: boolean };
/** Read the persisted events from `from` (`readFrom`) and index them. */
export type ReadSuffixPlan = {
  readonly kind: 'read-suffix';
  readonly from: number;
  readonly start: 'keep' | 'reset' | 'truncate';
};

/*
 * The per-session rules of a sync, pure so every branch is tested without SQLite or files:
 * - Another incarnation (deleted and created again) never shares rows: reset, index from 0.
 * - Live wins: its memory is indexed beyond the cut; a live log shorter than the cut is not the log
 *   that was indexed, so it resets.
 * - Rows indexed from a live session's memory are re-read from disk once it is cold (`truncate` to
 *   the durable cut): memory may have run ahead of what became durable (a crash, a failed write),
 *   and the index may be stale but never wrong.
 * - Otherwise a persisted session is read only when its revision changed, and only from the cut.
 */

export function planLiveSync(row: SessionRow | undefined, live: LiveSubject): Unchanged | IndexMemoryPlan {
  if (row === undefined || row.incarnation !== live.incarnation || row.cut > live.length)
    return { kind: 'index-memory', reset: true };
  return row.cut === live.length ? { kind: 'unchanged' } : { kind: 'index-memory', reset: false };
}

export function planPersistedSync(
  row: SessionRow | undefined,
  persisted: PersistedSubject,
): Unchanged | ReadSuffixPlan {
  if (row === undefined || row.incarnation !== persisted.incarnation)
    return { kind: 'read-suffix', from: 0, start: 'reset' };
  if (row.cut > row.durableCut) return { kind: 'read-suffix', from: row.durableCut, start: 'truncate' };
  if (row.revision === persisted.revision) return { kind: 'unchanged' };
  return { kind: 'read-suffix', from: row.cut, start: 'keep' };
}
