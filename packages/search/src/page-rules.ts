import { encodeCursor, type SearchCursor } from './cursor.js';
import { SearchIndexError } from './errors.js';
import type { IndexedFacets } from './facets.js';
import type { RankedEntry } from './ranked-window.js';
import { DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT } from './search-index.js';

/*
 * The engine-neutral rules of a results page (README: "Cursors and generations"): which cursor is
 * still good, and how a result snapshot's entries are stored. Each engine runs them inside its own
 * transaction (search-page.ts for SQLite).
 */

/** Rank windows one page call may rank at most. */
export const MAX_WINDOWS_PER_PAGE = 8;

/**
 * Sessions whose label matches that one search ranks ahead of the rest (the best ones, by the
 * engine's relevance); a label match beyond them still finds its session through its events, if
 * they match. Both engines freeze them at the head of the first page's snapshot.
 */
export const MAX_LABEL_MATCHES = 1_024;

/** Who an index is: cursors name both, so another index's or an older generation's are refused. */
export interface IndexIdentity {
  /** Random per index (per file, per database). */
  readonly indexId: string;
  /** Bumped by every rebuild. */
  readonly generation: number;
}

/** A frozen result order behind a cursor. */
export interface SnapshotHead {
  readonly id: number;
  readonly generation: number;
  /** The engine's match expression it ranks: a cursor is only valid for the same query. */
  readonly expression: string;
  /** The facet filter it ranks under (`filterKey`; `null`: unfiltered): part of the query. */
  readonly filter: string | null;
  /** Where its next rank window starts; `null` when it holds every match. */
  readonly upperSid: number | null;
  /** Entries held (positions 0 … size-1). */
  readonly size: number;
}

export interface SnapshotRetention {
  /** A snapshot not used for this long is dropped (its cursors become stale). */
  readonly maxIdleMs: number;
  /** At most this many snapshots are kept; the least recently used go first. */
  readonly maxSnapshots: number;
}

/** What a page call asks for besides the engine's match expression. */
export interface PageQuery {
  /** The query's phrases as folded tokens (`queryPhrases`), for highlighting. */
  readonly phrases: readonly (readonly string[])[];
  readonly limit: number;
  readonly cursor: SearchCursor | undefined;
  /** Only sessions filed under these facets (`activeFilter`); `undefined`: every session. */
  readonly filter: IndexedFacets | undefined;
}

/** The cursor a page hands out: the snapshot and where the next page starts, or `null` at the end. */
export function nextPageCursor(
  identity: IndexIdentity,
  hasMore: boolean,
  snapshotId: number | undefined,
  offset: number,
): string | null {
  if (!hasMore || snapshotId === undefined) return null;
  return encodeCursor({ indexId: identity.indexId, generation: identity.generation, snapshotId, offset });
}

/** Throws `SEARCH_STALE_CURSOR` unless the cursor was issued by this index in this generation. */
export function checkCursorIdentity(cursor: SearchCursor, identity: IndexIdentity): void {
  if (cursor.indexId !== identity.indexId || cursor.generation !== identity.generation) {
    throw new SearchIndexError(
      'SEARCH_STALE_CURSOR',
      cursor.indexId !== identity.indexId
        ? 'the search cursor belongs to another search index'
        : `the search cursor is from index generation ${cursor.generation}; the index was rebuilt (generation ${identity.generation})`,
    );
  }
}

/**
 * The cursor's snapshot, if it is still usable for `expression` under `filter` (a `filterKey`):
 * `SEARCH_STALE_CURSOR` when it was dropped (expired, pruned, rebuilt), `SEARCH_INVALID_QUERY`
 * when it ranks another query — another filter included, since its order holds only the sessions
 * of its own filter.
 */
export function usableSnapshot(
  head: SnapshotHead | undefined,
  identity: IndexIdentity,
  expression: string,
  filter: string | null,
): SnapshotHead {
  if (head === undefined || head.generation !== identity.generation) {
    throw new SearchIndexError(
      'SEARCH_STALE_CURSOR',
      'the search cursor has expired (its result snapshot was dropped); search again',
    );
  }
  if (head.expression !== expression)
    throw new SearchIndexError('SEARCH_INVALID_QUERY', 'the search cursor belongs to another query');
  if (head.filter !== filter)
    throw new SearchIndexError(
      'SEARCH_INVALID_QUERY',
      'the search cursor belongs to the same query under another cwd/harness filter',
    );
  return head;
}

/** A snapshot chunk's stored form: `[sid, score, hits]` per entry, `[sid, score, hits, 1]` for a label match, as JSON. */
type ChunkEntry = [sid: number, score: number, hits: number[], label?: 1];

export function encodeSnapshotEntries(entries: readonly RankedEntry[]): string {
  return JSON.stringify(
    entries.map(
      (e): ChunkEntry =>
        e.label === true ? [e.sid, e.score, [...e.hits], 1] : [e.sid, e.score, [...e.hits]],
    ),
  );
}

export function decodeSnapshotEntries(json: string): RankedEntry[] {
  return (JSON.parse(json) as ChunkEntry[]).map(([sid, score, hits, label]) =>
    label === 1 ? { sid, score, hits, label: true } : { sid, score, hits },
  );
}

/** The page size of a search, checked: `SEARCH_INVALID_QUERY` outside 1…`MAX_SEARCH_LIMIT`. */
export function pageLimit(limit: number = DEFAULT_SEARCH_LIMIT): number {
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_SEARCH_LIMIT) {
    throw new SearchIndexError(
      'SEARCH_INVALID_QUERY',
      `limit must be an integer in 1…${MAX_SEARCH_LIMIT}, got ${limit}`,
    );
  }
  return limit;
}
