import { defined } from '@strand/session';
import pg from 'pg';
import {
  defaultTextExtractor,
  DEFAULT_RANK_WINDOW,
  SearchIndexError,
  type LiveIndexReport,
  type SearchIndex,
  type SearchIndexTuning,
  type SearchOptions,
  type SearchPage,
  type SearchSources,
  type SyncOptions,
  type SyncReport,
} from '@strand/search';
import {
  activeFilter,
  decodeCursor,
  indexMemory,
  literalQuery,
  pageLimit,
  queryPhrases,
  syncIndex,
  throwIfSearchAborted,
} from '@strand/search/kit';
import type { Session, SessionEvent } from '@strand/session';
import type { WriteRules } from './pg-group-store.js';
import { indexGroup } from './pg-index-group.js';
import { PgIndexStore } from './pg-index-store.js';
import { searchPage, type PageSettings } from './pg-search-page.js';
import { SearchDatabase, searchFailure } from './search-database.js';
import { currentGeneration, prepareSearchSchema, resetIndex } from './search-schema.js';
import { tsqueryPieces, tsquerySql } from './ts-text.js';

export interface PostgresSearchIndexOptions extends SearchIndexTuning {
  /** `postgres://…` of the database; the index creates its tables there (component `search`). */
  readonly url: string;
  /** Connections the index's pool opens at most; default 4. */
  readonly maxConnections?: number;
}

/**
 * The session search index on PostgreSQL full-text search: the same contract as the SQLite
 * `SessionSearchIndex` (README of `@strand/search`), shared by every host on the database.
 *
 * Concurrency: `sync` and `rebuild` run one at a time per instance; `indexLive` and
 * `indexLiveMany` calls are queued together and run in call order; a `search` first waits for the `indexLive` calls made before it, so a
 * live append is searchable as soon as its `indexLive` was called. Other hosts may write the same
 * tables at any time: every write is a transaction against the session's locked bookkeeping row.
 */
export class PostgresSearchIndex implements SearchIndex {
  readonly #db: SearchDatabase;
  readonly #store: PgIndexStore;
  readonly #rules: WriteRules;
  readonly #settings: PageSettings;
  #exclusive: Promise<unknown> = Promise.resolve();
  #live: Promise<unknown> = Promise.resolve();

  private constructor(db: SearchDatabase, options: PostgresSearchIndexOptions, rankWindow: number) {
    this.#db = db;
    this.#rules = {
      extract: options.extractor ?? defaultTextExtractor,
      label: options.labeler,
      facets: options.facets,
    };
    this.#store = new PgIndexStore(db, this.#rules.extract, this.#rules.label, this.#rules.facets);
    this.#settings = {
      rankWindow,
      retention: {
        maxIdleMs: options.snapshotIdleMs ?? 60 * 60 * 1000,
        maxSnapshots: options.maxSnapshots ?? 1_000,
      },
      now: options.now ?? Date.now,
    };
  }

  /**
   * Connects, creates the tables if the database has none (refusing a newer schema) and returns the
   * index. Throws `SEARCH_INDEX_FAILED` when the database cannot be reached or its
   * schema is newer (the cause is the `SchemaVersionError`).
   */
  static async open(options: PostgresSearchIndexOptions): Promise<PostgresSearchIndex> {
    const rankWindow = options.rankWindow ?? DEFAULT_RANK_WINDOW;
    if (!Number.isSafeInteger(rankWindow) || rankWindow < 1)
      throw new RangeError(`rankWindow must be a positive integer, got ${rankWindow}`);
    const pool = new pg.Pool({ connectionString: options.url, max: options.maxConnections ?? 4 });
    // An idle connection that dies (server restart, admin kill) is an 'error' event on the pool;
    // the pool drops that client and the next query opens a new one or fails with its own error.
    pool.on('error', () => undefined);
    try {
      await prepareSearchSchema(pool);
    } catch (error) {
      await pool.end().catch(() => undefined);
      throw new SearchIndexError(
        'SEARCH_INDEX_FAILED',
        `cannot open the PostgreSQL search index: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    }
    return new PostgresSearchIndex(new SearchDatabase(pool), options, rankWindow);
  }

  currentGeneration(): Promise<number> {
    return currentGeneration(this.#db);
  }

  /** Brings the index up to date incrementally (see `SearchIndex.sync`); safe beside other hosts' syncs. */
  sync(sources: SearchSources, options: SyncOptions = {}): Promise<SyncReport> {
    return this.#runExclusive(() => syncIndex(this.#store, sources, options));
  }

  /**
   * Drops everything, bumps the generation (every host's cursors become stale) and re-indexes. Other
   * hosts' searches see the part re-indexed so far; their syncs carry on safely.
   */
  rebuild(sources: SearchSources, options: SyncOptions = {}): Promise<SyncReport> {
    return this.#runExclusive(async () => {
      throwIfSearchAborted(options.signal, 'search index rebuild');
      await resetIndex(this.#db);
      return syncIndex(this.#store, sources, options);
    });
  }

  /**
   * Queues indexing a live session's memory up to the last of `events` (default: all); the promise
   * settles when it is committed and rejects if it fails — handle it (the index is derived: the
   * next sync catches up what failed).
   */
  indexLive(
    session: Pick<Session, 'id' | 'incarnation' | 'header' | 'inheritedEventCount' | 'events'>,
    events?: readonly SessionEvent[],
  ): Promise<LiveIndexReport> {
    const last = events?.[events.length - 1];
    const upTo = last === undefined ? undefined : last.seq + 1;
    const task = this.#live.then(async () => {
      this.#db.assertOpen();
      const counts = await indexMemory(this.#store, session, defined({ upTo }));
      return { events: counts.events, rows: counts.rows };
    });
    // The queue only orders the work; each caller sees its own call's failure.
    this.#live = task.catch(() => undefined);
    return task;
  }

  /**
   * Queues indexing many live sessions' memory (all their events) in one transaction: the same
   * rows, bookkeeping and search answers as `indexLive` for each in order, but set-based — a few
   * statements for the whole group instead of two transactions per session (generating a corpus,
   * importing many sessions). The promise settles when the group is committed; on a failure it
   * rejects and none of the group is indexed. Bookkeeping rows are locked in `session_id` order, so
   * hosts indexing overlapping groups wait for each other rather than deadlock.
   */
  indexLiveMany(
    sessions: readonly Pick<Session, 'id' | 'incarnation' | 'header' | 'inheritedEventCount' | 'events'>[],
  ): Promise<LiveIndexReport> {
    const task = this.#live.then(async () => {
      this.#db.assertOpen();
      if (sessions.length === 0) return { events: 0, rows: 0 };
      const counts = await this.#db.transaction((client) => indexGroup(client, this.#rules, sessions));
      return { events: counts.events, rows: counts.rows };
    });
    this.#live = task.catch(() => undefined);
    return task;
  }

  /**
   * One page of sessions matching `query` literally, ranked and grouped; the same errors as the
   * SQLite index (`SEARCH_INVALID_QUERY`, `SEARCH_STALE_CURSOR`,
   * `SEARCH_ABORTED`, `SEARCH_INDEX_FAILED`).
   */
  async search(query: string, options: SearchOptions = {}): Promise<SearchPage> {
    this.#db.assertOpen();
    throwIfSearchAborted(options.signal, 'search');
    const { terms } = literalQuery(query);
    const limit = pageLimit(options.limit);
    const cursor = options.cursor === undefined ? undefined : decodeCursor(options.cursor);
    await this.#live;
    throwIfSearchAborted(options.signal, 'search');
    const pieces = tsqueryPieces(terms);
    return this.#db.transaction(async (client) => {
      const tsquery =
        pieces.length === 0
          ? ''
          : ((await client.query<{ q: string }>(tsquerySql(pieces.length), pieces)).rows[0]?.q ?? '');
      return searchPage(client, this.#settings, {
        tsquery,
        phrases: queryPhrases(terms),
        limit,
        cursor,
        filter: activeFilter(options),
      });
    });
  }

  /** Waits for queued and running work to stop, then closes the pool; later calls fail. Idempotent. */
  async close(): Promise<void> {
    if (this.#db.closed) return;
    const pending = Promise.allSettled([this.#exclusive, this.#live]);
    // Refuse new work at once; running work fails at its next statement.
    const ending = this.#db.end();
    await pending;
    await ending.catch((error: unknown) => {
      throw searchFailure(error);
    });
  }

  #runExclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#exclusive.then(() => {
      this.#db.assertOpen();
      return task();
    });
    // The chain only orders tasks; each caller sees its own task's failure.
    this.#exclusive = run.catch(() => undefined);
    return run;
  }
}

/** Opens the PostgreSQL search index (see `PostgresSearchIndex.open`). */
export function openPostgresSearchIndex(options: PostgresSearchIndexOptions): Promise<PostgresSearchIndex> {
  return PostgresSearchIndex.open(options);
}
