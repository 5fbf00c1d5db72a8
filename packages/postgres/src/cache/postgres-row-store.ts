import { defined } from '@strand/session';
import pg from 'pg';
import type { CacheRow, CacheRowStore } from '@strand/projection-cache';
import type { Logger } from '@strand/session';
import { RowMirror, type RowChange } from './mirror.js';
import { NoticeListener } from './notice-listener.js';
import { PostgresListIndex } from './postgres-list-index.js';
import { loadRows, type StoreChange } from './row-sql.js';
import { CACHE_CHANNEL, prepareCacheSchema } from './schema.js';
import { WriteBehind } from './write-behind.js';

export interface PostgresRowStoreOptions {
  readonly url: string;
  readonly logger: Logger;
  readonly reconnectBackoffMs?: { readonly first: number; readonly max: number } | undefined;
}

/**
 * Cache rows in PostgreSQL, served synchronously from an in-process mirror of every row.
 *
 * - Open: LISTEN first, then load every row, so no change committed after the load is missed.
 * - `write`/`forget` change the mirror at once and are written behind, in order (`WriteBehind`);
 *   each commit NOTIFYs the session id.
 * - A notice reloads that session's rows; a reconnection of the listener reloads everything
 *   (notices sent while it was away are lost). Changes not yet committed here are laid over what
 *   a reload read, so a reload never loses this process's own recent writes.
 * - Nothing here throws to a synchronous caller after open: failures are logged, and the mirror
 *   keeps serving what it holds (stale at worst, and stale is a cache's right — never wrong: every
 *   row is a valid checkpoint of its identity at its cut).
 */
export class PostgresCacheRowStore implements CacheRowStore {
  readonly #pool: pg.Pool;
  readonly #logger: Logger;
  readonly #mirror = new RowMirror();
  readonly #writes: WriteBehind;
  readonly #listener: NoticeListener;
  /** The list index beside the rows (`list_rows`), written behind through the same queue. */
  readonly listIndex: PostgresListIndex;
  #open = true;
  #closing: Promise<void> | undefined;
  readonly #dirty = new Set<string>();
  #reloadAll = false;
  #reloading: Promise<void> | undefined;

  private constructor(options: PostgresRowStoreOptions) {
    this.#logger = options.logger;
    // Three connections: one for the ordered writes, one for reloads (both short and serial), one
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
    this.#listener = new NoticeListener({
      url: options.url,
      channel: CACHE_CHANNEL,
      logger: this.#logger,
      onNotice: (sessionId) => this.#requestReload(sessionId),
      onReconnected: () => this.#requestReload(undefined),
      ...defined({ backoffMs: options.reconnectBackoffMs }),
    });
  }

  /** Creates the table if needed, listens, and loads every row. Rejects (and cleans up) on failure. */
  static async open(options: PostgresRowStoreOptions): Promise<PostgresCacheRowStore> {
    const store = new PostgresCacheRowStore(options);
    try {
      await prepareCacheSchema(store.#pool);
      await store.#listener.start();
      await store.#loadAll();
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

  read(sessionId: string, incarnation: string, inheritedCut: number): readonly CacheRow[] {
    return this.#mirror.read(sessionId, incarnation, inheritedCut);
  }

  write(...[sessionId, incarnation, inheritedCut, rows, listRow]: Parameters<CacheRowStore['write']>): void {
    this.#change({ kind: 'put', sessionId, incarnation, inheritedCut, rows, listRow });
  }

  forget(sessionId: string): void {
    this.#change({ kind: 'forget', sessionId });
  }

  /** Settles every write made so far and every reload requested so far. */
  async drain(): Promise<void> {
    await this.#writes.drain();
    while (this.#reloading !== undefined) await this.#reloading;
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
      if (this.#reloading !== undefined) await this.#reloading;
      await this.#pool.end();
    } catch (error) {
      this.#logger.warn('closing the PostgreSQL projection cache failed', { error });
    }
  }

  #change(change: RowChange): void {
    this.#mirror.apply(change);
    this.#writes.enqueue(change);
  }

  /** `undefined` asks for every row. Requests made while a reload runs coalesce into the next one. */
  #requestReload(sessionId: string | undefined): void {
    if (!this.#open) return;
    if (sessionId === undefined) this.#reloadAll = true;
    else this.#dirty.add(sessionId);
    this.#reloading ??= this.#runReloads();
  }

  async #runReloads(): Promise<void> {
    // Let notices that arrived in the same burst join this round.
    await Promise.resolve();
    while (this.#open && (this.#reloadAll || this.#dirty.size > 0)) {
      try {
        if (this.#reloadAll) {
          this.#reloadAll = false;
          this.#dirty.clear();
          await this.#loadAll();
        } else {
          const ids = [...this.#dirty];
          this.#dirty.clear();
          await this.#loadSessions(ids);
        }
      } catch (error) {
        this.#logger.warn('reloading cache rows from PostgreSQL failed; serving the rows held in memory', {
          error,
        });
      }
    }
    // Cleared in the same synchronous step as the last check, so no request can fall in between.
    this.#reloading = undefined;
  }

  async #loadAll(): Promise<void> {
    const stored = await loadRows(this.#pool);
    this.#mirror.replaceAll(stored);
    for (const change of this.#writes.pending) if (isRowChange(change)) this.#mirror.apply(change);
  }

  async #loadSessions(ids: readonly string[]): Promise<void> {
    const stored = await loadRows(this.#pool, ids);
    this.#mirror.replaceSessions(ids, stored);
    const reloaded = new Set(ids);
    for (const change of this.#writes.pending) {
      if (isRowChange(change) && reloaded.has(change.sessionId)) this.#mirror.apply(change);
    }
  }
}

function isRowChange(change: StoreChange): change is RowChange {
  return change.kind === 'put' || change.kind === 'forget';
}
