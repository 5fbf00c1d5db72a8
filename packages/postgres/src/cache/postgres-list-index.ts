import type pg from 'pg';
import type {
  ListIdentity,
  ListIdentityPage,
  ListIndexQuery,
  ListIndexRow,
  ListIndexStore,
  UsageIndexQuery,
  UsageIndexSession,
} from '@strand/projection-cache';
import {
  selectListIdentities,
  selectListPage,
  selectListRows,
  selectReconciledMarker,
  selectUnfoldedIds,
  type ListChange,
} from './list-sql.js';
import { selectUsage } from './usage-sql.js';

/** The store's write-behind queue, as the list index uses it. */
export interface ListWrites {
  enqueue(change: ListChange): void;
  /** Resolves once every change enqueued before the call has settled. */
  settled(): Promise<void>;
  /** How many changes failed to be written (logged and dropped) so far. */
  readonly failures: number;
}

/**
 * The list index in PostgreSQL (`list_rows`), beside the cache rows of `PostgresCacheRowStore`.
 *
 * - Writes are synchronous to the caller and written behind through the store's own `WriteBehind`,
 *   in order with the cache rows; a `put`'s list row goes in the same transaction as its rows.
 * - Reads are one SQL query each (a page is one index range scan) and are served by the database,
 *   never from memory, so a host's memory does not grow with the corpus. A read first waits for
 *   this process's writes queued before it to settle (not for later ones): a host sees its own
 *   writes, and no second copy of pending rows has to be laid over the query's answer. Rows
 *   written by other hosts are seen once they commit.
 * - The reconciled marker (reconcile-schema.ts) is recorded through the same queue, so it commits
 *   after every row the walk queued before it, never ahead of one. A queued row can still fail
 *   (logged and dropped, never thrown); the record is then skipped, see `recordReconciledMarker`.
 */
export class PostgresListIndex implements ListIndexStore {
  readonly #pool: pg.Pool;
  readonly #writes: ListWrites;
  /** `#writes.failures` when the marker was last read (the reconcile reads it before its walk). */
  #failuresAtRead = 0;

  constructor(pool: pg.Pool, writes: ListWrites) {
    this.#pool = pool;
    this.#writes = writes;
  }

  upsert(row: ListIndexRow): void {
    this.#writes.enqueue({ kind: 'list-upsert', sessionId: row.header.id, row });
  }

  forget(sessionId: string): void {
    this.#writes.enqueue({ kind: 'list-forget', sessionId });
  }

  forgetHints(sessionId: string): void {
    this.#writes.enqueue({ kind: 'list-forget-hints', sessionId });
  }

  clear(): void {
    this.#writes.enqueue({ kind: 'list-clear' });
  }

  async page(query: ListIndexQuery): Promise<readonly ListIndexRow[]> {
    await this.#writes.settled();
    return selectListPage(this.#pool, query);
  }

  async rows(ids: readonly string[]): Promise<readonly ListIndexRow[]> {
    await this.#writes.settled();
    return selectListRows(this.#pool, ids);
  }

  async usage(query: UsageIndexQuery): Promise<readonly UsageIndexSession[]> {
    await this.#writes.settled();
    return selectUsage(this.#pool, query);
  }

  async identities(page: ListIdentityPage): Promise<readonly ListIdentity[]> {
    await this.#writes.settled();
    return selectListIdentities(this.#pool, page);
  }

  async unfoldedIds(page: ListIdentityPage): Promise<readonly string[]> {
    await this.#writes.settled();
    return selectUnfoldedIds(this.#pool, page);
  }

  async reconciledMarker(): Promise<string | undefined> {
    this.#failuresAtRead = this.#writes.failures;
    await this.#writes.settled();
    return selectReconciledMarker(this.#pool);
  }

  /**
   * Queued behind the walk's rows, so it never commits ahead of them (no separate wait for the
   * queue to drain is needed, and a `clear` queued after it still drops it). It is written only if
   * no change failed since the marker was read before the walk: a failed row is dropped, and a
   * recorded marker would let every later open skip the walk that would write it again.
   */
  recordReconciledMarker(marker: string): void {
    const failuresAtRead = this.#failuresAtRead;
    this.#writes.enqueue({
      kind: 'list-marker',
      marker,
      recordable: () => this.#writes.failures === failuresAtRead,
    });
  }
}
