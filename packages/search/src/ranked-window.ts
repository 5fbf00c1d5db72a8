/**
 * One matching event: `[sid, seq, cost]`, where lower cost is more relevant — FTS5's bm25 as is
 * (it is negative), or the negated `ts_rank_cd` on PostgreSQL.
 */
export type MatchRow = readonly [sid: number, seq: number, cost: number];

/** Hits kept (and summed into the score) per session. */
export const HITS_PER_SESSION = 3;

/** One session of a result snapshot. */
export interface RankedEntry {
  readonly sid: number;
  /** Higher is better: the negated sum of the cost of `hits` (of their bm25 on SQLite). */
  readonly score: number;
  /** Seqs of the best matching events, best first. */
  readonly hits: readonly number[];
  /** The session's label matched: `hits[0]` is the label's event (see search-page.ts). */
  readonly label?: true;
}

export interface RankedWindow {
  readonly entries: readonly RankedEntry[];
  /** Where the next window starts (sessions with a smaller sid), or `null` when the matches are exhausted. */
  readonly nextUpperSid: number | null;
}

/**
 * Groups one window of matches (descending rowid: sessions contiguous, newest first) into ranked
 * sessions. Pure.
 *
 * A session's score sums its best `HITS_PER_SESSION` hits, so more matching events — and more
 * occurrences within one event, through bm25 or ts_rank_cd — rank higher, while a huge session cannot win on
 * volume alone. Ties break on the newer session (larger sid). When the window is full, its lowest
 * session may continue below it; it has been ranked here, so the next window starts strictly below
 * that session (`nextUpperSid`) and no session ever appears in two windows.
 */
export function rankWindow(rows: readonly MatchRow[], windowSize: number): RankedWindow {
  const entries: RankedEntry[] = [];
  let i = 0;
  while (i < rows.length) {
    const sid = rows[i]![0];
    const best: (readonly [seq: number, cost: number])[] = [];
    for (; i < rows.length && rows[i]![0] === sid; i++) {
      const [, seq, cost] = rows[i]!;
      insertBest(best, seq, cost);
    }
    entries.push({
      sid,
      score: -best.reduce((sum, [, cost]) => sum + cost, 0),
      hits: best.map(([seq]) => seq),
    });
  }
  entries.sort((a, b) => b.score - a.score || b.sid - a.sid);
  const full = rows.length >= windowSize && rows.length > 0;
  return { entries, nextUpperSid: full ? rows[rows.length - 1]![0] : null };
}

/** Keeps the `HITS_PER_SESSION` lowest costs, ascending; equal costs keep the earlier seq first. */
function insertBest(best: (readonly [number, number])[], seq: number, cost: number): void {
  let at = best.length;
  while (at > 0 && (best[at - 1]![1] > cost || (best[at - 1]![1] === cost && best[at - 1]![0] > seq))) at--;
  if (at >= HITS_PER_SESSION) return;
  best.splice(at, 0, [seq, cost]);
  if (best.length > HITS_PER_SESSION) best.pop();
}
