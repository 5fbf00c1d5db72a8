import type { Session, SessionEvent } from '@strand/session';
import type { LabelExtractor, TextExtractor } from './default-extractor.js';
import type { FacetExtractor } from './facets.js';
import type { MaybePromise } from './index-store.js';
import type {
  LiveIndexReport,
  SearchOptions,
  SearchPage,
  SearchSources,
  SyncOptions,
  SyncReport,
} from './types.js';

/** Matching events ranked together per rank window (README: "Ranking"). */
export const DEFAULT_RANK_WINDOW = 1_024;
export const DEFAULT_SEARCH_LIMIT = 20;
export const MAX_SEARCH_LIMIT = 100;

/** Options every search engine takes besides where its index lives. */
export interface SearchIndexTuning {
  /** Which text of an event to index; default `defaultTextExtractor`. */
  readonly extractor?: TextExtractor;
  /**
   * Which events set a session's label (its title) and to what; default none. A session whose
   * label matches a query ranks above every session matched by event text only, and its first
   * hit is the label's event. Both engines (the PostgreSQL one from its schema 2).
   */
  readonly labeler?: LabelExtractor;
  /**
   * Which facets (`cwd`, `harness`) a session's header files it under, for the `cwd`/`harness`
   * filters of `search` (and `projectName`, the `cwd`'s last folder name); default none (a filtered search then finds nothing). Read when a
   * session's row is created or re-bound to another incarnation. Both engines.
   */
  readonly facets?: FacetExtractor;
  /** Matching events ranked together per window; default 1,024. Smaller is faster and less exact. */
  readonly rankWindow?: number;
  /** Result snapshots (cursors) unused this long are dropped; default one hour. */
  readonly snapshotIdleMs?: number;
  /** Result snapshots kept at most; default 1,000. */
  readonly maxSnapshots?: number;
  /** Clock for snapshot retention (tests). */
  readonly now?: () => number;
}

/**
 * The engine-neutral search index: what the host and the CLI use, whichever engine holds the index
 * (`SessionSearchIndex` on SQLite FTS5, the PostgreSQL full-text index of `@strand/postgres`). One
 * behaviour suite (`@strand/search/testing`) runs against every implementation; README.md states the
 * contract and the engines' differences.
 */
export interface SearchIndex {
  /** The index generation now; every rebuild bumps it and makes older cursors stale. */
  currentGeneration(): Promise<number>;
  /** Brings the index up to date incrementally (live sessions from memory, changed logs from their cut). */
  sync(sources: SearchSources, options?: SyncOptions): Promise<SyncReport>;
  /** Drops everything, bumps the generation and indexes the sources from scratch. */
  rebuild(sources: SearchSources, options?: SyncOptions): Promise<SyncReport>;
  /**
   * Indexes a live session's in-memory events up to the last of `events` (default: all of them)
   * from the indexed cut — no disk read. A synchronous engine has committed when it returns; an
   * asynchronous one queues the work in call order and returns a promise that settles when it is
   * committed (and rejects if it fails — callers must handle it). Either way a `search` called
   * afterwards sees it.
   */
  indexLive(
    session: Pick<Session, 'id' | 'incarnation' | 'header' | 'inheritedEventCount' | 'events'>,
    events?: readonly SessionEvent[],
  ): MaybePromise<LiveIndexReport>;
  /** One page of sessions matching `query` literally, ranked and grouped. */
  search(query: string, options?: SearchOptions): Promise<SearchPage>;
  /** Releases the index; later calls fail with `SEARCH_INDEX_FAILED`. */
  close(): MaybePromise<void>;
}
