import { defined } from '@strand/session';
import type pg from 'pg';
import { ProjectionCacheError } from '@strand/projection-cache';
import type { Logger } from '@strand/session';
import { writeChanges, type StoreChange } from './row-sql.js';

/**
 * Changes written in one transaction at most: a group holds its sessions' locks until it commits.
 * A list upsert costs a share of a few batched statements (row-sql.ts), so a group takes up to
 * `MAX_LIST_GROUP` of them; the other changes, a few statements each, at most `MAX_GROUP`.
 */
const MAX_GROUP = 100;
const MAX_LIST_GROUP = 500;

/** The changes from `at` that one transaction takes. */
export function groupFrom(pending: readonly StoreChange[], at: number): StoreChange[] {
  const group: StoreChange[] = [];
  let heavy = 0;
  for (let i = at; i < pending.length && group.length < MAX_LIST_GROUP; i++) {
    const change = pending[i]!;
    if (change.kind !== 'list-upsert' && ++heavy > MAX_GROUP) break;
    group.push(change);
  }
  return group;
}

/**
 * Writes row changes to PostgreSQL one at a time, in the order they were made, after the
 * synchronous `put`/`forget` that made them has returned. Changes queued behind the one being
 * written go with it in one transaction (`groupFrom`), so a burst — a list rebuild, a catch-up
 * — commits once per group, not once per session; if the group fails, its changes are written
 * again one transaction each, so one bad change costs only itself. A failure is logged and dropped, never
 * thrown: the cache has no authority, and the next write of that session heals it (rows are
 * whole states). Until a change settles it stays `pending`, so a reload of the mirror from the
 * database can lay it over what it read instead of losing it.
 */
export class WriteBehind {
  readonly #pool: pg.Pool;
  readonly #logger: Logger;
  readonly #pending: StoreChange[] = [];
  #tail: Promise<void> = Promise.resolve();
  #failures = 0;

  constructor(pool: pg.Pool, logger: Logger) {
    this.#pool = pool;
    this.#logger = logger;
  }

  /** Changes not yet settled (committed or failed), oldest first. */
  get pending(): readonly StoreChange[] {
    return this.#pending;
  }

  /** Changes that failed and were dropped so far (the list index records no marker past one). */
  get failures(): number {
    return this.#failures;
  }

  enqueue(change: StoreChange): void {
    this.#pending.push(change);
    this.#tail = this.#tail.then(() => this.#write(change));
  }

  /**
   * Resolves once every change enqueued before this call has settled (not those enqueued during
   * the wait: a steady writer cannot hold a reader back).
   */
  settled(): Promise<void> {
    return this.#tail;
  }

  /** Resolves once every change enqueued before or during the wait has settled. */
  async drain(): Promise<void> {
    let tail: Promise<void>;
    do {
      tail = this.#tail;
      await tail;
    } while (tail !== this.#tail);
  }

  /**
   * Writes `change` with the changes queued behind it, unless an earlier group took it already.
   * Never rejects: the chain above must keep running after a failure.
   */
  async #write(change: StoreChange): Promise<void> {
    const at = this.#pending.indexOf(change);
    if (at === -1) return; // written with an earlier group
    const group = groupFrom(this.#pending, at);
    try {
      if (group.length > 1 && (await this.#attempt(group)) === undefined) return;
      for (const one of group) {
        const failure = await this.#attempt([one]);
        if (failure !== undefined) this.#report(one, failure);
      }
    } finally {
      for (const written of group) this.#pending.splice(this.#pending.indexOf(written), 1);
    }
  }

  /** One transaction; resolves with its failure, if any. */
  async #attempt(changes: readonly StoreChange[]): Promise<unknown> {
    let client: pg.PoolClient | undefined;
    let failure: unknown;
    let broken: Error | undefined;
    // A checked-out client has no pool listener; a dropped connection between two statements
    // would otherwise be an unhandled 'error' event. The statement in flight rejects anyway.
    const onError = (error: Error) => (broken ??= error);
    try {
      client = await this.#pool.connect();
      client.on('error', onError);
      await writeChanges(client, changes);
    } catch (error) {
      failure = error;
      broken ??= asError(error);
    } finally {
      client?.removeListener('error', onError);
      // A client that failed is discarded rather than handed to the next write.
      client?.release(broken);
    }
    return failure;
  }

  #report(change: StoreChange, failure: unknown): void {
    this.#failures++;
    const what = change.sessionId === undefined ? 'the list index' : change.sessionId;
    this.#logger.warn('write-behind failed: the rows stay in this process only until the next write', {
      sessionId: change.sessionId,
      error: new ProjectionCacheError(
        'PROJECTION_CACHE_WRITE_FAILED',
        `cannot write projection cache rows of ${what} to PostgreSQL`,
        { cause: failure, ...defined({ sessionId: change.sessionId }) },
      ),
    });
  }
}

function asError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}
