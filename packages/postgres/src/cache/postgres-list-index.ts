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
import { selectListIdentities, selectListPage, selectListRows, type ListChange } from './list-sql.js';
import { selectUsage } from './usage-sql.js';

/** The store's write-behind queue, as the list index uses it. */
export interface ListWrites {
  enqueue(change: ListChange): void;
  /** Resolves once every change enqueued before the call has settled. */
  settled(): Promise<void>;
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
 */
export class PostgresListIndex implements ListIndexStore {
  readonly #pool: pg.Pool;
  readonly #writes: ListWrites;

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
}
