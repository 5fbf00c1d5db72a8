import { readSqliteStore, type SqliteStoreRead } from '../source/sqlite-store.js';
import { OPENCODE, type StoreFlavour } from './flavour.js';

/** One row of opencode's `session` table, as the mapping needs it. */
export interface SessionRow {
  readonly id: string;
  readonly parentId: string | null;
  readonly title: string;
  readonly directory: string;
  readonly version: string;
  readonly timeCreated: number;
}

/** A `message` row with its `part` rows (by id: opencode's ids ascend in creation order). */
export interface MessageRow {
  readonly id: string;
  readonly sessionId: string;
  readonly timeCreated: number;
  /** The row's `data` column, unparsed: a bad row is reported where it is mapped. */
  readonly data: string;
  readonly parts: PartRow[];
}

export interface PartRow {
  readonly id: string;
  readonly timeCreated: number;
  readonly data: string;
}

/** What one read of an opencode database holds: every session with its messages, in id order. */
export interface StoreSnapshot {
  readonly sessions: readonly SessionRow[];
  readonly messages: ReadonlyMap<string, readonly MessageRow[]>;
}

export type StoreRead = SqliteStoreRead<StoreSnapshot>;

// The columns the mapping reads; a table without one of them is another schema.
const NEEDED: Readonly<Record<string, readonly string[]>> = {
  session: ['id', 'parent_id', 'title', 'directory', 'version', 'time_created'],
  message: ['id', 'session_id', 'time_created', 'data'],
  part: ['id', 'message_id', 'session_id', 'time_created', 'data'],
};

/**
 * Reads an opencode database without ever locking its harness out. The connection is read-only
 * over the WAL (the harness's `-wal` and `-shm` are read as SQLite readers read them; never the
 * `immutable` flag, which would read a file the harness still writes as if it could not change),
 * and every table is read in one read transaction, so the snapshot is consistent: a WAL reader
 * takes no lock a writer waits on. A writer holding the database in recovery or a checkpoint
 * makes the reader wait up to `busy_timeout`, then the file is reported unreadable and retried on
 * the next run.
 */
export function readStore(file: string, busyTimeoutMs = 2000, flavour: StoreFlavour = OPENCODE): StoreRead {
  return readSqliteStore(
    file,
    busyTimeoutMs,
    { what: `${flavour.article} database`, needed: NEEDED },
    (db) => {
      const sessions = (
        db
          .prepare(
            'SELECT id, parent_id, title, directory, version, time_created FROM session ORDER BY time_created, id',
          )
          .all() as Record<string, unknown>[]
      ).map(
        (r): SessionRow => ({
          id: String(r.id),
          parentId: typeof r.parent_id === 'string' ? r.parent_id : null,
          title: typeof r.title === 'string' ? r.title : '',
          directory: typeof r.directory === 'string' ? r.directory : '',
          version: typeof r.version === 'string' ? r.version : '',
          timeCreated: Number(r.time_created),
        }),
      );
      const messages = new Map<string, MessageRow[]>();
      const byId = new Map<string, MessageRow>();
      for (const r of db
        .prepare('SELECT id, session_id, time_created, data FROM message ORDER BY session_id, id')
        .iterate() as IterableIterator<Record<string, unknown>>) {
        const row: MessageRow = {
          id: String(r.id),
          sessionId: String(r.session_id),
          timeCreated: Number(r.time_created),
          data: String(r.data),
          parts: [],
        };
        byId.set(row.id, row);
        const list = messages.get(row.sessionId);
        if (list === undefined) messages.set(row.sessionId, [row]);
        else list.push(row);
      }
      for (const r of db
        .prepare('SELECT id, message_id, time_created, data FROM part ORDER BY message_id, id')
        .iterate() as IterableIterator<Record<string, unknown>>)
        byId.get(String(r.message_id))?.parts.push({
          id: String(r.id),
          timeCreated: Number(r.time_created),
          data: String(r.data),
        });
      return { sessions, messages };
    },
  );
}
