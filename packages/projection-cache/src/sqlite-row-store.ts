import Database from 'better-sqlite3';
import type { ListIndexRow } from './list-index/list-row.js';
import { SqliteListIndex } from './list-index/sqlite-list-index.js';
import type { CacheRow, CacheRowStore, KeyRow } from './row-store.js';
import { prepareSchema } from './schema.js';

/**
 * Rows in one SQLite database (`projection_rows`), read and written with prepared statements, and
 * the list index beside them (`list_rows`), written in the same transaction.
 */
export class SqliteCacheRowStore implements CacheRowStore {
  readonly #db: Database.Database;
  readonly listIndex: SqliteListIndex;
  /** Inside `batch`: writes run bare in its one transaction. */
  #batching = false;
  /** A bare write of this batch failed part-way: the batch must roll back. */
  #batchBroken = false;
  readonly #select: Database.Statement<[string, string, number], CacheRow>;
  readonly #selectKey: Database.Statement<[string], KeyRow>;
  readonly #upsert: Database.Statement<[string, string, number, string, number, number, string]>;
  readonly #dropOtherIdentities: Database.Statement<[string, string, number]>;
  readonly #forgetBody: (sessionId: string) => void;
  readonly #forget: (sessionId: string) => void;
  /** One session's rows and list row, as `CacheRowStore.write`: bare, and in its own transaction. */
  readonly #writeBody: CacheRowStore['write'];
  readonly #write: CacheRowStore['write'];

  /** Creates the table when absent; throws `PROJECTION_CACHE_SCHEMA_UNSUPPORTED` for a newer schema. */
  constructor(db: Database.Database) {
    prepareSchema(db);
    this.#db = db;
    this.listIndex = new SqliteListIndex(db);
    // Raw mode returns arrays, which are exactly `CacheRow`s.
    this.#select = db
      .prepare<
        [string, string, number],
        CacheRow
      >('SELECT key, state_version, cut, state FROM projection_rows WHERE session_id = ? AND incarnation = ? AND inherited_cut = ?')
      .raw(true);
    this.#selectKey = db
      .prepare<
        [string],
        KeyRow
      >('SELECT session_id, incarnation, inherited_cut, state_version, cut, state FROM projection_rows WHERE key = ?')
      .raw(true);
    // A row never moves back to an older cut of the same stateVersion (e.g. a slower writer elsewhere).
    this.#upsert = db.prepare(
      `INSERT INTO projection_rows (session_id, incarnation, inherited_cut, key, state_version, cut, state)
       VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (session_id, incarnation, inherited_cut, key) DO UPDATE SET
         state_version = excluded.state_version, cut = excluded.cut, state = excluded.state
       WHERE excluded.cut >= projection_rows.cut OR excluded.state_version <> projection_rows.state_version`,
    );
    this.#dropOtherIdentities = db.prepare(
      'DELETE FROM projection_rows WHERE session_id = ? AND NOT (incarnation = ? AND inherited_cut = ?)',
    );
    const forgetRows = db.prepare<[string]>('DELETE FROM projection_rows WHERE session_id = ?');
    this.#forgetBody = (sessionId: string) => {
      forgetRows.run(sessionId);
      this.listIndex.forgetHintsWithin(sessionId);
    };
    this.#forget = db.transaction(this.#forgetBody);
    this.#writeBody = (
      sessionId: string,
      incarnation: string,
      inheritedCut: number,
      rows: readonly CacheRow[],
      listRow?: ListIndexRow,
    ) => {
      this.#dropOtherIdentities.run(sessionId, incarnation, inheritedCut);
      for (const [key, stateVersion, cut, state] of rows) {
        this.#upsert.run(sessionId, incarnation, inheritedCut, key, stateVersion, cut, state);
      }
      if (listRow !== undefined) this.listIndex.upsertWithin(listRow);
    };
    this.#write = db.transaction(this.#writeBody);
  }

  /** Opens (or creates) a database file, or `':memory:'`, tuned for derived, rewritable rows. */
  static open(path: string): SqliteCacheRowStore {
    const db = new Database(path);
    try {
      db.pragma('busy_timeout = 5000');
      // Rows are derived and rewritten at every turn end; losing the last ones in a power cut only costs a refold.
      if (!db.memory) db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      return new SqliteCacheRowStore(db);
    } catch (error) {
      db.close();
      throw error;
    }
  }

  get isOpen(): boolean {
    return this.#db.open;
  }

  read(sessionId: string, incarnation: string, inheritedCut: number): readonly CacheRow[] {
    return this.#select.all(sessionId, incarnation, inheritedCut);
  }

  readKey(key: string): Iterable<KeyRow> {
    return this.#selectKey.all(key);
  }

  write(...args: Parameters<CacheRowStore['write']>): void {
    if (this.#batching) this.#inBatch(() => this.#writeBody(...args));
    else this.#write(...args);
  }

  forget(sessionId: string): void {
    if (this.#batching) this.#inBatch(() => this.#forgetBody(sessionId));
    else this.#forget(sessionId);
  }

  batch<T>(work: () => T): T {
    if (this.#batching) return work();
    this.#batching = true;
    this.#batchBroken = false;
    try {
      return this.#db.transaction(() => {
        const result = work();
        if (this.#batchBroken)
          throw new Error('a write inside the batch failed part-way: the whole batch is undone');
        return result;
      })();
    } finally {
      this.#batching = false;
    }
  }

  /**
   * A write inside a batch runs bare, not as a nested transaction: a savepoint per session makes
   * SQLite journal every page it touches to a temporary file (~150 MB for 2,300 imported sessions).
   * A bare write that fails part-way cannot be undone alone, so the batch is (`batch` throws).
   */
  #inBatch(write: () => void): void {
    try {
      write();
    } catch (error) {
      this.#batchBroken = true;
      throw error;
    }
  }

  close(): void {
    if (this.#db.open) this.#db.close();
  }
}
