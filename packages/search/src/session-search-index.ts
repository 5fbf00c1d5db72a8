import type Database from 'better-sqlite3';
import type { Session, SessionEvent } from '@strand/session';
import { decodeCursor } from './cursor.js';
import { defaultTextExtractor } from './default-extractor.js';
import { SearchIndexError, throwIfSearchAborted } from './errors.js';
import { activeFilter } from './facets.js';
import { literalQuery } from './fts-query.js';
import { guard, IndexWriter } from './index-writer.js';
import { MatchQueries } from './match-queries.js';
import { indexMemoryNow } from './memory-indexing.js';
import { pageLimit } from './page-rules.js';
import { ResultSnapshots, type SnapshotRetention } from './result-snapshots.js';
import { IndexMeta, openSearchDatabase, resetIndex } from './schema.js';
import { DEFAULT_RANK_WINDOW, type SearchIndex, type SearchIndexTuning } from './search-index.js';
import { searchPage, type PageContext } from './search-page.js';
import { syncIndex } from './sync.js';
import { queryPhrases } from './text-tokens.js';
import type {
  LiveIndexReport,
  SearchOptions,
  SearchPage,
  SearchSources,
  SyncOptions,
  SyncReport,
} from './types.js';

export { DEFAULT_RANK_WINDOW, DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT } from './search-index.js';

export interface SessionSearchIndexOptions extends SearchIndexTuning {
  /** The index file, or `':memory:'`. Created if missing; it holds nothing the logs do not. */
  readonly path: string;
}

/**
 * A SQLite FTS5 index of session message text, derived from the logs and rebuildable at any time.
 * See README.md for what it indexes, the cursor design and the error codes.
 *
 * Concurrency: `sync` and `rebuild` run one at a time (a later call waits for the earlier one);
 * `search` and `indexLive` are synchronous SQLite work between their awaits, so they never see a
 * half-written batch.
 */
export class SessionSearchIndex implements SearchIndex {
  readonly #db: Database.Database;
  readonly #writer: IndexWriter;
  readonly #page: PageContext;
  #exclusive: Promise<unknown> = Promise.resolve();
  #closed = false;

  private constructor(db: Database.Database, options: SessionSearchIndexOptions) {
    this.#db = db;
    this.#writer = new IndexWriter(
      db,
      options.extractor ?? defaultTextExtractor,
      options.labeler,
      options.facets,
    );
    const rankWindow = options.rankWindow ?? DEFAULT_RANK_WINDOW;
    if (!Number.isSafeInteger(rankWindow) || rankWindow < 1)
      throw new RangeError(`rankWindow must be a positive integer, got ${rankWindow}`);
    const retention: SnapshotRetention = {
      maxIdleMs: options.snapshotIdleMs ?? 60 * 60 * 1000,
      maxSnapshots: options.maxSnapshots ?? 1_000,
    };
    this.#page = {
      db,
      meta: new IndexMeta(db),
      matches: new MatchQueries(db),
      snapshots: new ResultSnapshots(db),
      sessions: this.#writer.sessions,
      rankWindow,
      retention,
      now: options.now ?? Date.now,
    };
  }

  static open(options: SessionSearchIndexOptions): SessionSearchIndex {
    const db = openSearchDatabase(options.path);
    try {
      return new SessionSearchIndex(db, options);
    } catch (error) {
      db.close();
      throw error;
    }
  }

  /** The current index generation; every rebuild bumps it and makes older cursors stale. */
  get generation(): number {
    this.#assertOpen();
    return guard(() => this.#page.meta.read().generation);
  }

  /** `generation`, as the engine-neutral `SearchIndex` reads it. */
  currentGeneration(): Promise<number> {
    try {
      return Promise.resolve(this.generation);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /**
   * Brings the index up to date incrementally: live sessions from memory beyond the indexed cut,
   * persisted sessions whose revision changed from their indexed cut (`readFrom`), a new
   * incarnation from 0; vanished sessions are dropped. Per-session read failures are reported, not
   * thrown.
   */
  sync(sources: SearchSources, options: SyncOptions = {}): Promise<SyncReport> {
    return this.#runExclusive(() => syncIndex(this.#writer, sources, options));
  }

  /**
   * Drops everything, bumps the generation (cursors issued before become stale) and indexes the
   * sources from scratch. Until it finishes, searches see the part re-indexed so far.
   */
  rebuild(sources: SearchSources, options: SyncOptions = {}): Promise<SyncReport> {
    return this.#runExclusive(() => {
      throwIfSearchAborted(options.signal, 'search index rebuild');
      guard(() => resetIndex(this.#db));
      return syncIndex(this.#writer, sources, options);
    });
  }

  /**
   * Indexes a live session's in-memory events up to the last of `events` (default: all of them),
   * from the indexed cut — no disk read. Meant for a `Session.subscribe` listener: the listener's
   * batch names how far to go, and anything the index missed before it is filled in from memory.
   * Synchronous: the batch is committed when it returns.
   */
  indexLive(
    session: Pick<Session, 'id' | 'incarnation' | 'header' | 'inheritedEventCount' | 'events'>,
    events?: readonly SessionEvent[],
  ): LiveIndexReport {
    this.#assertOpen();
    const last = events?.[events.length - 1];
    const counts = indexMemoryNow(this.#writer, session, last === undefined ? {} : { upTo: last.seq + 1 });
    return { events: counts.events, rows: counts.rows };
  }

  /**
   * `indexLive` of each session in turn, all in one transaction: a bulk writer (a generated corpus)
   * pays one commit, and FTS5 one segment, per call instead of per session. A failure rolls back
   * every session of the call.
   */
  indexLiveMany(
    sessions: readonly Pick<Session, 'id' | 'incarnation' | 'header' | 'inheritedEventCount' | 'events'>[],
  ): LiveIndexReport {
    this.#assertOpen();
    return this.#db.transaction(() => {
      const report = { events: 0, rows: 0 };
      for (const session of sessions) {
        const counts = indexMemoryNow(this.#writer, session);
        report.events += counts.events;
        report.rows += counts.rows;
      }
      return report;
    })();
  }

  /**
   * One page of sessions matching `query` literally, ranked and grouped (see README). Throws
   * `SEARCH_INVALID_QUERY` (empty query, bad limit or cursor), `SEARCH_STALE_CURSOR`
   * (rebuilt index, expired snapshot), `SEARCH_ABORTED`.
   */
  search(query: string, options: SearchOptions = {}): Promise<SearchPage> {
    try {
      this.#assertOpen();
      throwIfSearchAborted(options.signal, 'search');
      const { expression, terms } = literalQuery(query);
      const limit = pageLimit(options.limit);
      const cursor = options.cursor === undefined ? undefined : decodeCursor(options.cursor);
      return Promise.resolve(
        guard(() =>
          searchPage(this.#page, {
            expression,
            phrases: queryPhrases(terms),
            limit,
            cursor,
            filter: activeFilter(options),
          }),
        ),
      );
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /** Closes the database; later calls fail with `SEARCH_INDEX_FAILED`. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#db.close();
  }

  #runExclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#exclusive.then(() => {
      this.#assertOpen();
      return task();
    });
    // The chain only orders tasks; each caller sees its own task's failure.
    this.#exclusive = run.catch(() => undefined);
    return run;
  }

  #assertOpen(): void {
    if (this.#closed) throw new SearchIndexError('SEARCH_INDEX_FAILED', 'the search index is closed');
  }
}
