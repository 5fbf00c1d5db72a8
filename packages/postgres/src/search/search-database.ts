import { defined } from '@strand/session';
import type pg from 'pg';
import { SearchIndexError } from '@strand/search';

/** SQLSTATEs worth one more try: serialization failure, deadlock (another host won a race). */
const RETRYABLE = new Set(['40001', '40P01']);
const ATTEMPTS = 3;

/**
 * The search index's connection pool, with the one rule for failures: anything PostgreSQL or the
 * driver throws becomes `SEARCH_INDEX_FAILED` (the index's own errors pass through),
 * and a closed index refuses work with the same code.
 */
export class SearchDatabase {
  readonly #pool: pg.Pool;
  #closed = false;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  get closed(): boolean {
    return this.#closed;
  }

  assertOpen(): void {
    if (this.#closed) throw new SearchIndexError('SEARCH_INDEX_FAILED', 'the search index is closed');
  }

  /** One statement outside a transaction. */
  async query<R extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<R[]> {
    this.assertOpen();
    try {
      return (await this.#pool.query<R>(text, values)).rows;
    } catch (error) {
      throw searchFailure(error);
    }
  }

  /**
   * Runs `work` in one READ COMMITTED transaction on one connection. A serialization failure or a
   * deadlock (hosts racing on the same rows) is retried twice; `work` must therefore only touch the
   * database and its own locals.
   */
  async transaction<T>(work: (client: pg.PoolClient) => Promise<T>, sessionId?: string): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      this.assertOpen();
      let client: pg.PoolClient;
      try {
        client = await this.#pool.connect();
      } catch (error) {
        throw searchFailure(error, sessionId);
      }
      try {
        await client.query('BEGIN');
        const result = await work(client);
        await client.query('COMMIT');
        client.release();
        return result;
      } catch (error) {
        // A connection that cannot even roll back is broken: destroy it rather than pool it.
        const broken = await client.query('ROLLBACK').then(
          () => false,
          () => true,
        );
        client.release(broken);
        if (attempt < ATTEMPTS && RETRYABLE.has(sqlState(error) ?? '')) continue;
        throw searchFailure(error, sessionId);
      }
    }
  }

  /** Refuses further work and closes the pool (waits for checked-out connections to come back). */
  async end(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#pool.end();
  }
}

function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

export function searchFailure(error: unknown, sessionId?: string): SearchIndexError {
  if (error instanceof SearchIndexError) return error;
  return new SearchIndexError(
    'SEARCH_INDEX_FAILED',
    `search index operation failed: ${error instanceof Error ? error.message : String(error)}`,
    { cause: error, ...defined({ sessionId }) },
  );
}
