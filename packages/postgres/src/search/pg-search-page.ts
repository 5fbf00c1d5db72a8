import type pg from 'pg';
import type { SearchHit, SearchPage, SearchResult } from '@strand/search';
import {
  boundSnippet,
  buildSnippet,
  checkCursorIdentity,
  HITS_PER_SESSION,
  MAX_WINDOWS_PER_PAGE,
  nextPageCursor,
  rankWindow,
  usableSnapshot,
  type RankedEntry,
  type PageQuery,
  type SnapshotHead,
  type SnapshotRetention,
} from '@strand/search/kit';
import { SessionSeq } from '@strand/session';
import {
  matchWindow,
  sessionHits,
  sessionIdsOf,
  storedTexts,
  textKey,
  type StoredText,
} from './pg-match-queries.js';
import {
  createSnapshot,
  extendSnapshot,
  lockSnapshot,
  pruneSnapshots,
  snapshotEntries,
  touchSnapshot,
} from './pg-result-snapshots.js';
import { readIdentity } from './search-schema.js';

export interface PageSettings {
  readonly rankWindow: number;
  readonly retention: SnapshotRetention;
  readonly now: () => number;
}

export interface PageRequest extends PageQuery {
  /** The query's tsquery as text (`tsquerySql`); also the snapshot's expression. */
  readonly tsquery: string;
}

/**
 * One page of grouped results in one transaction — the SQLite index's page (search-page.ts in
 * `@strand/search`) over PostgreSQL: the first page ranks rank windows and freezes them in a
 * snapshot; later pages read it from the cursor's offset, ranking further windows below its
 * `upperSid` when it runs short. Sessions keep their `sid` for as long as they are indexed, so the
 * frozen order never changes and pages never repeat or skip a session.
 */
export async function searchPage(
  client: pg.ClientBase,
  settings: PageSettings,
  request: PageRequest,
): Promise<SearchPage> {
  const { tsquery, phrases, limit, cursor } = request;
  const identity = await readIdentity(client);
  const now = settings.now();
  let entries: RankedEntry[];
  let offset = 0;
  let snapshotId: number | undefined;
  let hasMore: boolean;
  if (cursor === undefined) {
    const { entries: collected, upperSid } = await rankWindows(client, settings, tsquery, null, limit + 1);
    hasMore = collected.length > limit || upperSid !== null;
    if (hasMore) {
      snapshotId = await createSnapshot(client, identity.generation, tsquery, upperSid, collected, now);
      await pruneSnapshots(client, now, settings.retention);
    }
    entries = collected.slice(0, limit);
  } else {
    checkCursorIdentity(cursor, identity);
    let head = usableSnapshot(await lockSnapshot(client, cursor.snapshotId), identity, tsquery);
    offset = cursor.offset;
    head = await fill(client, settings, head, offset + limit + 1, now);
    await touchSnapshot(client, head.id, now);
    hasMore = head.size > offset + limit || head.upperSid !== null;
    snapshotId = head.id;
    entries = await snapshotEntries(client, head.id, offset, limit);
  }
  const results = await present(client, tsquery, phrases, entries);
  const nextCursor = nextPageCursor(identity, hasMore, snapshotId, offset + entries.length);
  return { results, nextCursor, generation: identity.generation };
}

async function fill(
  client: pg.ClientBase,
  settings: PageSettings,
  head: SnapshotHead,
  size: number,
  now: number,
): Promise<SnapshotHead> {
  if (head.size >= size || head.upperSid === null) return head;
  const more = await rankWindows(client, settings, head.expression, head.upperSid, size - head.size);
  return extendSnapshot(client, head, more.entries, more.upperSid, now);
}

/** Ranks windows from `upperSid` down until `wanted` sessions, the end of the matches, or the window budget. */
async function rankWindows(
  client: pg.ClientBase,
  settings: PageSettings,
  tsquery: string,
  upperSid: number | null,
  wanted: number,
): Promise<{ entries: RankedEntry[]; upperSid: number | null }> {
  const entries: RankedEntry[] = [];
  let next = upperSid;
  for (let windows = 0; windows < MAX_WINDOWS_PER_PAGE && entries.length < wanted; windows++) {
    const rows = await matchWindow(client, tsquery, next, settings.rankWindow);
    const window = rankWindow(rows, settings.rankWindow);
    entries.push(...window.entries);
    next = window.nextUpperSid;
    if (next === null) break;
  }
  return { entries, upperSid: next };
}

/**
 * The entries as results, with snippets cut now from the stored text by the shared snippet
 * builder. A hit whose row is gone or no longer matches is replaced by the session's current best
 * hits; a session with none left, or no longer indexed, is left out (its position still consumed).
 * All texts of the page are read in one statement.
 */
async function present(
  client: pg.ClientBase,
  tsquery: string,
  phrases: readonly (readonly string[])[],
  entries: readonly RankedEntry[],
): Promise<SearchResult[]> {
  const ids = await sessionIdsOf(
    client,
    entries.map((e) => e.sid),
  );
  const texts = await storedTexts(
    client,
    tsquery,
    entries.filter((e) => ids.has(e.sid)).flatMap((e) => e.hits.map((seq) => [e.sid, seq] as const)),
  );
  const results: SearchResult[] = [];
  for (const entry of entries) {
    const sessionId = ids.get(entry.sid);
    if (sessionId === undefined) continue;
    let hits = snippets(texts, phrases, entry.sid, entry.hits);
    if (hits.length === 0) {
      const best = (await sessionHits(client, tsquery, entry.sid, HITS_PER_SESSION)).map(([, seq]) => seq);
      const fresh = await storedTexts(
        client,
        tsquery,
        best.map((seq) => [entry.sid, seq] as const),
      );
      hits = snippets(fresh, phrases, entry.sid, best);
    }
    if (hits.length > 0) results.push({ sessionId, score: entry.score, hits });
  }
  return results;
}

function snippets(
  texts: ReadonlyMap<string, StoredText>,
  phrases: readonly (readonly string[])[],
  sid: number,
  seqs: readonly number[],
): SearchHit[] {
  const hits: SearchHit[] = [];
  for (const seq of seqs) {
    const stored = texts.get(textKey(sid, seq));
    if (stored === undefined || !stored.matches) continue;
    // The highlighter and the index see the same tokens (ts-text.ts); if they still disagree (a
    // character PostgreSQL's parser treats as a separator), the hit shows its text unmarked.
    const raw = buildSnippet(stored.text, phrases) ?? stored.text;
    hits.push({ seq: SessionSeq(seq), snippet: boundSnippet(raw) });
  }
  return hits;
}
