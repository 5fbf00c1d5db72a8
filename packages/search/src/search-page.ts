import type Database from 'better-sqlite3';
import { SessionSeq } from '@strand/session';
import type { MatchQueries } from './match-queries.js';
import {
  checkCursorIdentity,
  MAX_WINDOWS_PER_PAGE,
  nextPageCursor,
  usableSnapshot,
  type PageQuery,
} from './page-rules.js';
import { HITS_PER_SESSION, rankWindow, type RankedEntry } from './ranked-window.js';
import type { ResultSnapshots, SnapshotHead, SnapshotRetention } from './result-snapshots.js';
import type { IndexMeta } from './schema.js';
import type { SessionRows } from './session-rows.js';
import { boundSnippet } from './snippet.js';
import { buildSnippet } from './snippet-builder.js';
import type { SearchHit, SearchPage, SearchResult } from './types.js';

export { MAX_WINDOWS_PER_PAGE } from './page-rules.js';

export interface PageContext {
  readonly db: Database.Database;
  readonly meta: IndexMeta;
  readonly matches: MatchQueries;
  readonly snapshots: ResultSnapshots;
  readonly sessions: SessionRows;
  /** Matching events ranked together (see README: rank windows). */
  readonly rankWindow: number;
  readonly retention: SnapshotRetention;
  readonly now: () => number;
}

export interface PageRequest extends PageQuery {
  readonly expression: string;
}

/**
 * One page of grouped results, in one SQLite transaction (the windows, the snapshot and the
 * snippets see one state of the index).
 *
 * The first page ranks rank windows until it holds `limit + 1` sessions, the matches run out, or
 * the window budget is spent; if there is more, the ordered sessions are frozen in a snapshot and
 * the cursor names (index, generation, snapshot, offset). A later page reads the snapshot from the
 * offset, ranking further windows below the snapshot's `upperSid` when it runs short. Appends
 * between pages change neither the frozen order nor which sessions lie below `upperSid` (a
 * session's rowid range never moves), so pages never repeat or skip a session; sessions indexed
 * for the first time after the first page get larger keys, sort above every window, and belong to
 * the next search, not this one.
 */
export function searchPage(ctx: PageContext, request: PageRequest): SearchPage {
  return ctx.db.transaction(() => pageNow(ctx, request))();
}

function pageNow(ctx: PageContext, { expression, phrases, limit, cursor }: PageRequest): SearchPage {
  const identity = ctx.meta.read();
  const now = ctx.now();
  let entries: RankedEntry[];
  let offset = 0;
  let snapshotId: number | undefined;
  let hasMore: boolean;
  if (cursor === undefined) {
    const { entries: collected, upperSid } = rankWindows(ctx, expression, null, limit + 1);
    hasMore = collected.length > limit || upperSid !== null;
    if (hasMore) {
      snapshotId = ctx.snapshots.create(identity.generation, expression, upperSid, collected, now);
      ctx.snapshots.prune(now, ctx.retention);
    }
    entries = collected.slice(0, limit);
  } else {
    checkCursorIdentity(cursor, identity);
    let head = usableSnapshot(ctx.snapshots.get(cursor.snapshotId), identity, expression);
    offset = cursor.offset;
    head = fill(ctx, head, offset + limit + 1, now);
    ctx.snapshots.touch(head.id, now);
    hasMore = head.size > offset + limit || head.upperSid !== null;
    snapshotId = head.id;
    entries = ctx.snapshots.entries(head.id, offset, limit);
  }
  const results: SearchResult[] = [];
  for (const entry of entries) {
    const result = present(ctx, expression, phrases, entry);
    if (result !== undefined) results.push(result);
  }
  const nextCursor = nextPageCursor(identity, hasMore, snapshotId, offset + entries.length);
  return { results, nextCursor, generation: identity.generation };
}

/** Ranks further windows below the snapshot until it holds `size` entries (see `rankWindows`). */
function fill(ctx: PageContext, head: SnapshotHead, size: number, now: number): SnapshotHead {
  if (head.size >= size || head.upperSid === null) return head;
  const more = rankWindows(ctx, head.expression, head.upperSid, size - head.size);
  return ctx.snapshots.extend(head, more.entries, more.upperSid, now);
}

/**
 * Ranks windows from `upperSid` down until `wanted` sessions are ranked, the matches run out, or
 * `MAX_WINDOWS_PER_PAGE` windows were ranked — which bounds a page's cost when sessions are huge
 * (each window then holds one session); that page may come back short, with a cursor.
 */
function rankWindows(
  ctx: PageContext,
  expression: string,
  upperSid: number | null,
  wanted: number,
): { entries: RankedEntry[]; upperSid: number | null } {
  const entries: RankedEntry[] = [];
  let next = upperSid;
  for (let windows = 0; windows < MAX_WINDOWS_PER_PAGE && entries.length < wanted; windows++) {
    const window = rankWindow(ctx.matches.window(expression, next, ctx.rankWindow), ctx.rankWindow);
    entries.push(...window.entries);
    next = window.nextUpperSid;
    if (next === null) break;
  }
  return { entries, upperSid: next };
}

/**
 * A snapshot entry as a result, with snippets read now. A hit that no longer matches (its session
 * was dropped or re-indexed since the first page) is replaced by the session's current best hits;
 * a session with none left, or no longer indexed, is left out of the page (its position is still
 * consumed, so nothing shifts).
 */
function present(
  ctx: PageContext,
  expression: string,
  phrases: readonly (readonly string[])[],
  entry: RankedEntry,
): SearchResult | undefined {
  const sessionId = ctx.sessions.sessionIdOf(entry.sid);
  if (sessionId === undefined) return undefined;
  const snippetsOf = (seqs: readonly number[]): SearchHit[] => {
    const hits: SearchHit[] = [];
    for (const seq of seqs) {
      const text = ctx.matches.text(entry.sid, seq);
      if (text === undefined) continue;
      // FTS5's snippet() when the JS highlighter disagrees with the tokenizer (it also re-checks the match).
      const raw = buildSnippet(text, phrases) ?? ctx.matches.snippet(expression, entry.sid, seq);
      if (raw !== undefined) hits.push({ seq: SessionSeq(seq), snippet: boundSnippet(raw) });
    }
    return hits;
  };
  let hits = snippetsOf(entry.hits);
  if (hits.length === 0)
    hits = snippetsOf(ctx.matches.sessionHits(expression, entry.sid, HITS_PER_SESSION).map(([, seq]) => seq));
  return hits.length === 0 ? undefined : { sessionId, score: entry.score, hits };
}
