import { defined } from '@strand/session';
import pg from 'pg';
import { ProjectionCacheError, type CacheRow, type CacheRowStore } from '@strand/projection-cache';
import type { Logger } from '@strand/session';
import { LoadRounds } from './load-rounds.js';
import { RowMirror, type MirrorBounds, type RowChange } from './mirror.js';
import { NoticeListener } from './notice-listener.js';
import { PostgresListIndex } from './postgres-list-index.js';
import { loadRows, type StoreChange } from './row-sql.js';
import { CACHE_CHANNEL, prepareCacheSchema } from './schema.js';
import { WriteBehind } from './write-behind.js';

export interface PostgresRowStoreOptions {
  readonly url: string;
  readonly logger: Logger;
  readonly reconnectBackoffMs?: { readonly first: number; readonly max: number } | undefined;
  /** How much of the rows the mirror holds (default `DEFAULT_MIRROR_BOUNDS`). */
  readonly mirrorBounds?: MirrorBounds | undefined;
}

/**
 * Cache rows in PostgreSQL, served synchronously from an in-process mirror of the sessions read
 * lately (bounded: `MirrorBounds`, least recently used evicted).
 *
 * - Open loads nothing: a session's rows are loaded when it is first read — by `prefetch`, which
 *   callers await before their synchronous reads, or in the background after a read that found
 *   nothing held (that read misses; the next one hits).
 * - `write`/`forget` change the mirror at once and are written behind, in order (`WriteBehind`);
 *   each commit NOTIFYs the session id.
 * - A notice reloads that session's rows when they are held (or being loaded); a session not held
 *   is loaded fresh when next read anyway. A reconnection of the listener reloads every held
 *   session (notices sent while it was away are lost). Changes not yet committed here are laid over
 *   what a load read, so a load never loses this process's own recent writes.
 * - Nothing here throws to a synchronous caller after open: failures are logged
 *   (`PROJECTION_CACHE_READ_FAILED` for a load), and the mirror keeps serving what it holds (stale
 *   at worst, and stale is a cache's right — never wrong: every row is a valid checkpoint of its
 *   identity at its cut).
 */
export class PostgresCacheRowStore implements CacheRowStore {
  readonly #pool: pg.Pool;
  readonly #logger: Logger;
  readonly #mirror: RowMirror;
  readonly #writes: WriteBehind;
  readonly #listener: NoticeListener;
  readonly #loads: LoadRounds;
  /** The list index beside the rows (`list_rows`), written behind through the same queue. */
  readonly listIndex: PostgresListIndex;
  #open = true;
  #closing: Promise<void> | undefined;

  private constructor(options: PostgresRowStoreOptions) {
    this.#logger = options.logger;
    this.#mirror = new RowMirror(options.mirrorBounds);
    // Three connections: one for the ordered writes, one for loads (both short and serial), one
    // for list index reads (concurrent pages queue for it; each is one indexed query).
    this.#pool = new pg.Pool({
      connectionString: options.url,
      max: 3,
      application_name: 'strand-projection-cache',
      connectionTimeoutMillis: 10_000,
    });
    // An idle pooled connection that drops (server restart, terminated backend) is replaced on the
    // next checkout; without a listener the pool's 'error' would end the process.
    this.#pool.on('error', (error) =>
      this.#logger.warn('an idle PostgreSQL connection of the cache failed', { error }),
    );
    this.#writes = new WriteBehind(this.#pool, this.#logger);
    this.listIndex = new PostgresListIndex(this.#pool, this.#writes);
    this.#loads = new LoadRounds({
      load: (ids) => this.#loadSessions(ids),
      held: () => this.#mirror.heldIds(),
      isOpen: () => this.#open,
      onFailure: (ids, error) => this.#loadFailed(ids, error),
    });
    this.#listener = new NoticeListener({
      url: options.url,
      channel: CACHE_CHANNEL,
      logger: this.#logger,
      onNotice: (sessionId) => this.#noticed(sessionId),
      onReconnected: () => void this.#loads.requestHeld(),
      ...defined({ backoffMs: options.reconnectBackoffMs }),
    });
  }

  /** Creates the tables if needed and listens; loads no row. Rejects (and cleans up) on failure. */
  static async open(options: PostgresRowStoreOptions): Promise<PostgresCacheRowStore> {
    const store = new PostgresCacheRowStore(options);
    try {
      await prepareCacheSchema(store.#pool);
      await store.#listener.start();
      return store;
    } catch (error) {
      store.#open = false;
      // Cleanup after a failed open; the open error is what the caller needs to see.
      await store.#listener.stop().catch(() => undefined);
      await store.#pool.end().catch(() => undefined);
      throw error;
    }
  }

  get isOpen(): boolean {
    return this.#open;
  }

  /** Session ids whose rows are held in memory. */
  get mirroredSessions(): number {
    return this.#mirror.sessionCount;
  }

  /** The estimated bytes of the rows held in memory. */
  get mirroredBytes(): number {
    return this.#mirror.bytes;
  }

  read(sessionId: string, incarnation: string, inheritedCut: number): readonly CacheRow[] {
    const held = this.#mirror.held(sessionId);
    // Not held (or only this process's own puts): load it for the next read. A read that misses
    // costs no wrong answer — the caller folds the log — so it does not wait. Past a bound of
    // queued ids (a caller reading the whole corpus without prefetching) misses load nothing more.
    if ((held === undefined || !held.complete) && this.#loads.queuedCount < MAX_QUEUED_MISSES)
      void this.#loads.request([sessionId]);
    return this.#mirror.read(sessionId, incarnation, inheritedCut);
  }

  /**
   * Loads the rows of the ids not held completely, so the synchronous reads that follow can serve
   * them (as long as the bounds keep them: ask for at most `maxSessions` at a time). Never rejects.
   */
  prefetch(sessionIds: readonly string[]): Promise<void> {
    const missing = sessionIds.filter((id) => this.#mirror.held(id)?.complete !== true);
    return missing.length === 0 ? Promise.resolve() : this.#loads.request(missing);
  }

  write(...[sessionId, incarnation, inheritedCut, rows, listRow]: Parameters<CacheRowStore['write']>): void {
    this.#change({ kind: 'put', sessionId, incarnation, inheritedCut, rows, listRow });
  }

  forget(sessionId: string): void {
    this.#change({ kind: 'forget', sessionId });
  }

  /** Settles every write made so far and every load requested so far. */
  async drain(): Promise<void> {
    await this.#writes.drain();
    await this.#loads.settled();
  }

  /** Stops serving at once; the shutdown (drain, unlisten, end the pool) finishes in the background. */
  close(): void {
    void this.closeAsync();
  }

  /** Idempotent; never rejects (a failing shutdown is logged: there is nothing left to serve). */
  closeAsync(): Promise<void> {
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  async #shutdown(): Promise<void> {
    this.#open = false;
    try {
      await this.#writes.drain();
      await this.#listener.stop();
      await this.#loads.settled();
      await this.#pool.end();
    } catch (error) {
      this.#logger.warn('closing the PostgreSQL projection cache failed', { error });
    }
  }

  #change(change: RowChange): void {
    this.#mirror.apply(change);
    this.#writes.enqueue(change);
  }

  /** Another host (or this one) committed rows of `sessionId`: reload them if they are held here. */
  #noticed(sessionId: string): void {
    if (this.#mirror.holds(sessionId) || this.#loads.isPending(sessionId))
      void this.#loads.request([sessionId]);
  }

  async #loadSessions(ids: readonly string[]): Promise<void> {
    const stored = await loadRows(this.#pool, ids);
    this.#mirror.replaceSessions(ids, stored);
    const loaded = new Set(ids);
    for (const change of this.#writes.pending) {
      if (isRowChange(change) && loaded.has(change.sessionId)) this.#mirror.apply(change);
    }
  }

  #loadFailed(ids: readonly string[], error: unknown): void {
    this.#logger.warn('loading cache rows from PostgreSQL failed; serving the rows held in memory', {
      sessions: ids.length,
      error: new ProjectionCacheError(
        'PROJECTION_CACHE_READ_FAILED',
        `cannot load the projection cache rows of ${ids.length} session(s) from PostgreSQL`,
        { cause: error, ...(ids.length === 1 ? { sessionId: ids[0] } : {}) },
      ),
    });
  }
}

/** Session ids a store queues for loading after misses at most (a prefetch is not bounded by it). */
const MAX_QUEUED_MISSES = 10_000;

function isRowChange(change: StoreChange): change is RowChange {
  return change.kind === 'put' || change.kind === 'forget';
}
