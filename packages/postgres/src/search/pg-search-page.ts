import type pg from 'pg';
import type { SearchHit, SearchPage, SearchResult } from '@strand/search';
import {
  boundSnippet,
  buildSnippet,
  checkCursorIdentity,
  filterKey,
  HITS_PER_SESSION,
  MAX_LABEL_MATCHES,
  MAX_WINDOWS_PER_PAGE,
  nextPageCursor,
  rankWindow,
  usableSnapshot,
  type IndexedFacets,
  type MatchRow,
  type RankedEntry,
  type PageQuery,
  type SnapshotHead,
  type SnapshotRetention,
} from '@strand/search/kit';
import { SessionSeq } from '@strand/session';
import {
  currentLabels,
  labelMatches,
  matchWindow,
  sessionsHits,
  describedSessions,
  storedTexts,
  textKey,
  type StoredLabel,
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
 * `upperSid` when it runs short. Sessions whose current label matches are ranked first, frozen at
 * the head of the first page's snapshot, and skipped by every window ranked after them. Sessions keep their `sid` for as long as they are indexed, so the
 * frozen order never changes and pages never repeat or skip a session.
 */
export async function searchPage(
  client: pg.ClientBase,
  settings: PageSettings,
  request: PageRequest,
): Promise<SearchPage> {
  const { tsquery, phrases, limit, cursor, filter } = request;
  const identity = await readIdentity(client);
  const now = settings.now();
  let entries: RankedEntry[];
  let offset = 0;
  let snapshotId: number | undefined;
  let hasMore: boolean;
  if (cursor === undefined) {
    // Label matches first, then the windows of event matches without those sessions; at least one
    // window is ranked, so `upperSid` says where the windows stand (null: exhausted).
    const labelled = await labelEntries(client, tsquery, filter);
    const exclude = new Set(labelled.map((entry) => entry.sid));
    const wanted = Math.max(1, limit + 1 - labelled.length);
    const ranked = await rankWindows(client, settings, tsquery, filter, null, wanted, exclude);
    const collected = [...labelled, ...ranked.entries];
    const { upperSid } = ranked;
    hasMore = collected.length > limit || upperSid !== null;
    if (hasMore) {
      snapshotId = await createSnapshot(
        client,
        identity.generation,
        tsquery,
        filterKey(filter),
        upperSid,
        collected,
        now,
      );
      await pruneSnapshots(client, now, settings.retention);
    }
    entries = collected.slice(0, limit);
  } else {
    checkCursorIdentity(cursor, identity);
    let head = usableSnapshot(
      await lockSnapshot(client, cursor.snapshotId),
      identity,
      tsquery,
      filterKey(filter),
    );
    offset = cursor.offset;
    head = await fill(client, settings, head, filter, offset + limit + 1, now);
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
  filter: IndexedFacets | undefined,
  size: number,
  now: number,
): Promise<SnapshotHead> {
  if (head.size >= size || head.upperSid === null) return head;
  // The label matches were frozen at the head of the snapshot by its first page: never twice.
  const exclude = new Set(
    (await snapshotEntries(client, head.id, 0, MAX_LABEL_MATCHES))
      .filter((entry) => entry.label === true)
      .map((entry) => entry.sid),
  );
  // Under the snapshot's own filter (`usableSnapshot` checked it is the request's).
  const more = await rankWindows(
    client,
    settings,
    head.expression,
    filter,
    head.upperSid,
    size - head.size,
    exclude,
  );
  return extendSnapshot(client, head, more.entries, more.upperSid, now);
}

/** Ranks windows from `upperSid` down until `wanted` sessions, the end of the matches, or the window budget. */
async function rankWindows(
  client: pg.ClientBase,
  settings: PageSettings,
  tsquery: string,
  filter: IndexedFacets | undefined,
  upperSid: number | null,
  wanted: number,
  exclude: ReadonlySet<number>,
): Promise<{ entries: RankedEntry[]; upperSid: number | null }> {
  const entries: RankedEntry[] = [];
  let next = upperSid;
  for (let windows = 0; windows < MAX_WINDOWS_PER_PAGE && entries.length < wanted; windows++) {
    const rows = await matchWindow(client, tsquery, next, settings.rankWindow, filter);
    const window = rankWindow(rows, settings.rankWindow);
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
async function labelEntries(
  client: pg.ClientBase,
  tsquery: string,
  filter: IndexedFacets | undefined,
): Promise<RankedEntry[]> {
  return (await labelMatches(client, tsquery, MAX_LABEL_MATCHES, filter)).map(
    ([sid, seq, cost]): RankedEntry => ({ sid, score: -cost, hits: [seq], label: true }),
  );
}

/**
 * The entries as results, with snippets cut now from the stored text by the shared snippet
 * builder. A hit whose row is gone or no longer matches is replaced by the session's current best
 * hits; a session with none left, or no longer indexed, is left out (its position still consumed).
 * A label match shows the label's event first while that label is still the session's and still
 * matches, then the session's best event hits. Every result carries the session's current label.
 * All texts of the page are read in one statement, all labels in another.
 */
async function present(
  client: pg.ClientBase,
  tsquery: string,
  phrases: readonly (readonly string[])[],
  entries: readonly RankedEntry[],
): Promise<SearchResult[]> {
  const ids = await describedSessions(
    client,
    entries.map((e) => e.sid),
  );
  const texts = await storedTexts(
    client,
    tsquery,
    entries
      .filter((e) => ids.has(e.sid) && e.label !== true)
      .flatMap((e) => e.hits.map((seq) => [e.sid, seq] as const)),
  );
  const labels = await currentLabels(client, tsquery, [...ids.keys()]);
  // A result shown by its label also shows its session's best event hits: read for every such
  // result at once (one statement each for rows and texts, not two per result).
  const best = await sessionsHits(
    client,
    tsquery,
    entries.filter((e) => ids.has(e.sid) && e.label === true).map((e) => e.sid),
    HITS_PER_SESSION,
  );
  const bestTexts = await storedTexts(
    client,
    tsquery,
    [...best].flatMap(([sid, hits]) => hits.map(([, seq]) => [sid, seq] as const)),
  );
  const results: SearchResult[] = [];
  for (const entry of entries) {
    const described = ids.get(entry.sid);
    if (described === undefined) continue;
    const { sessionId, facts } = described;
    const current = labels.get(entry.sid);
    const seqsOf = (found: Map<number, MatchRow[]>, limit: number): number[] =>
      (found.get(entry.sid) ?? []).slice(0, limit).map(([, seq]) => seq);
    let hits: SearchHit[];
    if (entry.label === true) {
      hits = labelHit(current, entry.hits[0], phrases);
      const labelSeq = hits[0]?.seq;
      // The first `limit` of the best HITS_PER_SESSION are the best `limit`: one order, cut.
      const seqs = seqsOf(best, HITS_PER_SESSION - hits.length);
      hits.push(...snippets(bestTexts, phrases, entry.sid, seqs).filter((hit) => hit.seq !== labelSeq));
    } else {
      hits = snippets(texts, phrases, entry.sid, entry.hits);
      if (hits.length === 0) {
        // Its ranked hits no longer match (re-indexed since): its current best, rare enough to
        // read one session at a time.
        const seqs = seqsOf(
          await sessionsHits(client, tsquery, [entry.sid], HITS_PER_SESSION),
          HITS_PER_SESSION,
        );
        const fresh = await storedTexts(
          client,
          tsquery,
          seqs.map((seq) => [entry.sid, seq] as const),
        );
        hits = snippets(fresh, phrases, entry.sid, seqs);
      }
    }
    const label = current === undefined || current.text === '' ? null : current.text;
    if (hits.length > 0) results.push({ sessionId, score: entry.score, hits, label, facts });
  }
  return results;
}

/** The label's hit: none unless the label ranked is still the session's current one and still matches. */
function labelHit(
  current: StoredLabel | undefined,
  rankedSeq: number | undefined,
  phrases: readonly (readonly string[])[],
): SearchHit[] {
  if (current === undefined || current.seq !== rankedSeq || !current.matches) return [];
  return [
    {
      seq: SessionSeq(current.seq),
      snippet: boundSnippet(buildSnippet(current.text, phrases) ?? current.text),
    },
  ];
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
