import { readSqliteStore, type SqliteStoreRead } from '../source/sqlite-store.js';

/** One row of crush's `sessions` table, as the mapping needs it. */
export interface SessionRow {
  readonly id: string;
  readonly parentId: string | null;
  readonly title: string;
  /** Milliseconds (crush writes seconds; see `millis`). */
  readonly createdAt: number;
}

/** One row of crush's `messages` table: the parts column unparsed (a bad row is reported where it is mapped). */
export interface MessageRow {
  readonly id: string;
  readonly sessionId: string;
  readonly role: string;
  readonly parts: string;
  readonly model: string | null;
  /** `null` in opencode-go's databases (the column came with crush's 2025-06 migration). */
  readonly provider: string | null;
  readonly createdAt: number;
  readonly finishedAt: number | null;
  /** A summary written by crush's `Summarize` (compaction); `false` where the column is absent. */
  readonly isSummary: boolean;
}

/** What one read of a crush database holds: every session with its messages, in creation order. */
export interface StoreSnapshot {
  readonly sessions: readonly SessionRow[];
  readonly messages: ReadonlyMap<string, readonly MessageRow[]>;
}

export type StoreRead = SqliteStoreRead<StoreSnapshot>;

// The columns the mapping cannot do without; `provider` and `is_summary_message` are read where
// present (crush's later migrations; opencode-go's databases lack them).
const NEEDED: Readonly<Record<string, readonly string[]>> = {
  sessions: ['id', 'parent_session_id', 'title', 'created_at'],
  messages: ['id', 'session_id', 'role', 'parts', 'model', 'created_at', 'finished_at'],
};

/**
 * crush's timestamps: the schema says milliseconds, but its queries write `strftime('%s', 'now')`
 * and `time.Now().Unix()`, seconds. A value below 10^11 (the year 5138 in seconds, 1973 in
 * milliseconds) is taken for seconds, so a database written either way reads right.
 */
export function millis(value: unknown): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) return 0;
  return n < 1e11 ? n * 1000 : n;
}

/**
 * Reads a crush (or opencode-go) database without ever locking its harness out: read-only over
 * the WAL (never `immutable`, which would read a file crush still writes as if it could not
 * change), both tables in one read transaction (a consistent snapshot; a WAL reader takes no lock
 * a writer waits on). Busy past `busy_timeout` (recovery, a checkpoint): unreadable, retried on
 * the next run.
 */
export function readStore(file: string, busyTimeoutMs = 2000): StoreRead {
  return readSqliteStore(file, busyTimeoutMs, { what: 'a crush database', needed: NEEDED }, (db, columns) => {
    const messageColumns = columns.get('messages')!;
    const optional = (column: string, fallback: string): string =>
      messageColumns.has(column) ? column : `${fallback} AS ${column}`;
    const sessions = (
      db
        .prepare('SELECT id, parent_session_id, title, created_at FROM sessions ORDER BY created_at, rowid')
        .all() as Record<string, unknown>[]
    ).map(
      (r): SessionRow => ({
        id: String(r.id),
        parentId:
          typeof r.parent_session_id === 'string' && r.parent_session_id !== '' ? r.parent_session_id : null,
        title: typeof r.title === 'string' ? r.title : '',
        createdAt: millis(r.created_at),
      }),
    );
    const messages = new Map<string, MessageRow[]>();
    // Creation order: `created_at` is in whole seconds, so ties are broken by insertion (rowid);
    // the ids are random UUIDs and say nothing of order.
    for (const r of db
      .prepare(
        `SELECT id, session_id, role, parts, model, ${optional('provider', 'NULL')}, created_at, finished_at, ${optional('is_summary_message', '0')} FROM messages ORDER BY session_id, created_at, rowid`,
      )
      .iterate() as IterableIterator<Record<string, unknown>>) {
      const row: MessageRow = {
        id: String(r.id),
        sessionId: String(r.session_id),
        role: String(r.role),
        parts: String(r.parts),
        model: typeof r.model === 'string' && r.model !== '' ? r.model : null,
        provider: typeof r.provider === 'string' && r.provider !== '' ? r.provider : null,
        createdAt: millis(r.created_at),
        finishedAt: r.finished_at === null || r.finished_at === undefined ? null : millis(r.finished_at),
        isSummary: Number(r.is_summary_message) === 1,
      };
      const list = messages.get(row.sessionId);
      if (list === undefined) messages.set(row.sessionId, [row]);
      else list.push(row);
    }
    return { sessions, messages };
  });
}
