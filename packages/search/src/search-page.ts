import type Database from 'better-sqlite3';
import { SessionSeq } from '@strand/session';
import { filterKey, type IndexedFacets } from './facets.js';
import type { MatchQueries } from './match-queries.js';
import {
  checkCursorIdentity,
  MAX_LABEL_MATCHES,
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

export { MAX_LABEL_MATCHES, MAX_WINDOWS_PER_PAGE } from './page-rules.js';

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

function pageNow(ctx: PageContext, { expression, phrases, limit, cursor, filter }: PageRequest): SearchPage {
  const identity = ctx.meta.read();
  const now = ctx.now();
  let entries: RankedEntry[];
  let offset = 0;
  let snapshotId: number | undefined;
  let hasMore: boolean;
  if (cursor === undefined) {
    // Label matches first, then the windows of event matches without those sessions; at least one
    // window is ranked, so `upperSid` says where the windows stand (null: exhausted).
    const labelled = labelEntries(ctx, expression, filter);
    const exclude = new Set(labelled.map((entry) => entry.sid));
    const wanted = Math.max(1, limit + 1 - labelled.length);
    const ranked = rankWindows(ctx, expression, filter, null, wanted, exclude);
    const collected = [...labelled, ...ranked.entries];
    const { upperSid } = ranked;
    hasMore = collected.length > limit || upperSid !== null;
    if (hasMore) {
      snapshotId = ctx.snapshots.create(
        identity.generation,
        expression,
        filterKey(filter),
        upperSid,
        collected,
        now,
      );
      ctx.snapshots.prune(now, ctx.retention);
    }
    entries = collected.slice(0, limit);
  } else {
    checkCursorIdentity(cursor, identity);
    let head = usableSnapshot(ctx.snapshots.get(cursor.snapshotId), identity, expression, filterKey(filter));
    offset = cursor.offset;
    head = fill(ctx, head, filter, offset + limit + 1, now);
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

/**
 * Ranks further windows below the snapshot until it holds `size` entries (see `rankWindows`),
 * under the snapshot's own filter (`usableSnapshot` checked it is the request's).
 */
function fill(
  ctx: PageContext,
  head: SnapshotHead,
  filter: IndexedFacets | undefined,
  size: number,
  now: number,
): SnapshotHead {
  if (head.size >= size || head.upperSid === null) return head;
  // The label matches were frozen at the head of the snapshot by its first page: never twice.
  const exclude = new Set(
    ctx.snapshots
      .entries(head.id, 0, MAX_LABEL_MATCHES)
      .filter((entry) => entry.label === true)
      .map((entry) => entry.sid),
  );
  const more = rankWindows(ctx, head.expression, filter, head.upperSid, size - head.size, exclude);
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
  filter: IndexedFacets | undefined,
  upperSid: number | null,
  wanted: number,
  exclude: ReadonlySet<number>,
): { entries: RankedEntry[]; upperSid: number | null } {
  const entries: RankedEntry[] = [];
  let next = upperSid;
  for (let windows = 0; windows < MAX_WINDOWS_PER_PAGE && entries.length < wanted; windows++) {
    const window = rankWindow(ctx.matches.window(expression, next, ctx.rankWindow, filter), ctx.rankWindow);
    for (const entry of window.entries) if (!exclude.has(entry.sid)) entries.push(entry);
    next = window.nextUpperSid;
    if (next === null) break;
  }
  return { entries, upperSid: next };
}

/**
 * The sessions whose current label matches, best first (ties: newer first), each with the label's
 * event as its one stored hit; their event hits are read when presented.
 */
function labelEntries(
  ctx: PageContext,
  expression: string,
  filter: IndexedFacets | undefined,
): RankedEntry[] {
  return ctx.matches
    .labels(expression, MAX_LABEL_MATCHES, filter)
    .map(([sid, seq, cost]): RankedEntry => ({ sid, score: -cost, hits: [seq], label: true }));
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
  const described = ctx.sessions.described(entry.sid);
  if (described === undefined) return undefined;
  const { sessionId, facts } = described;
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
  if (entry.label === true) {
    // The label's event first, while the label still matches; then the session's first matching
    // events. Not its best: ranking them would cost a bm25 pass over the term's whole doclist per
    // title match (see match-queries.ts), and the title is what ranked this session.
    const hits: SearchHit[] = [];
    const [labelSeq] = entry.hits;
    const label =
      labelSeq === undefined ? undefined : ctx.matches.currentLabel(expression, entry.sid, labelSeq);
    if (labelSeq !== undefined && label !== undefined)
      hits.push({ seq: SessionSeq(labelSeq), snippet: boundSnippet(buildSnippet(label, phrases) ?? label) });
    const rest = ctx.matches.firstSessionHits(expression, entry.sid, HITS_PER_SESSION).map(([, seq]) => seq);
    hits.push(...snippetsOf(rest.filter((seq) => seq !== labelSeq).slice(0, HITS_PER_SESSION - hits.length)));
    return hits.length === 0
      ? undefined
      : { sessionId, score: entry.score, hits, label: ctx.matches.labelOf(entry.sid), facts };
  }
  let hits = snippetsOf(entry.hits);
  if (hits.length === 0)
    hits = snippetsOf(ctx.matches.sessionHits(expression, entry.sid, HITS_PER_SESSION).map(([, seq]) => seq));
  return hits.length === 0
    ? undefined
    : { sessionId, score: entry.score, hits, label: ctx.matches.labelOf(entry.sid), facts };
}
