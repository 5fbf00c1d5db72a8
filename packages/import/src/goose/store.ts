import { readSqliteStore, type SqliteStoreRead } from '../source/sqlite-store.js';

/**
 * The newest schema version of goose's `sessions.db` this importer was checked against
 * (`CURRENT_SCHEMA_VERSION` in goose's `crates/goose/src/session/migrations.rs`). A newer one is
 * still read when the columns the mapping needs are there, with a note saying so.
 */
export const KNOWN_SCHEMA_VERSION = 13;

/** One row of goose's `sessions` table, as the mapping needs it. */
export interface GooseSessionRow {
  readonly id: string;
  /** `name` (schema ≥ 4), else `description` (what goose itself falls back to). */
  readonly name: string;
  readonly userSetName: boolean;
  /** `user`, `scheduled`, `sub_agent`, `hidden`, `acp` (schema ≥ 5; `user` before). */
  readonly sessionType: string;
  readonly workingDir: string;
  /** `created_at`, as SQLite holds it (`YYYY-MM-DD HH:MM:SS`, UTC) or RFC 3339. */
  readonly createdAt: string;
  readonly providerName: string | null;
  /** `model_config_json`, unparsed. */
  readonly modelConfig: string | null;
}

/** A `messages` row; `content_json` and `metadata_json` unparsed (a bad row is reported where mapped). */
export interface GooseMessageRow {
  readonly rowId: number;
  readonly role: string;
  readonly content: string;
  readonly created: number;
  readonly metadata: string | null;
}

export interface GooseSnapshot {
  readonly schemaVersion: number;
  readonly sessions: readonly GooseSessionRow[];
  readonly messages: ReadonlyMap<string, readonly GooseMessageRow[]>;
}

export type GooseStoreRead = SqliteStoreRead<GooseSnapshot>;

// The columns the mapping cannot do without; the others are read when the schema has them.
const NEEDED: Readonly<Record<string, readonly string[]>> = {
  sessions: ['id', 'working_dir', 'created_at'],
  messages: ['id', 'session_id', 'role', 'content_json', 'created_timestamp'],
};

/**
 * Reads goose's session store as opencode's is read (`../opencode/store.ts`): read-only over the
 * WAL (goose opens it in WAL mode), every table in one read transaction, so the snapshot is
 * consistent and goose is never locked out. Busy past the timeout, corrupt or truncated: the
 * file is unreadable and retried on the next run.
 */
export function readGooseStore(file: string, busyTimeoutMs = 2000): GooseStoreRead {
  return readSqliteStore(
    file,
    busyTimeoutMs,
    { what: 'a goose session store', needed: NEEDED },
    (db, columns) => {
      const s = columns.get('sessions')!;
      const m = columns.get('messages')!;
      const col = (have: ReadonlySet<string>, name: string) => (have.has(name) ? name : `NULL AS ${name}`);
      const hasVersion =
        db
          .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'")
          .get() !== undefined;
      const version = hasVersion
        ? Number((db.prepare('SELECT MAX(version) AS v FROM schema_version').get() as { v: unknown }).v ?? 0)
        : 0;
      const sessions = (
        db
          .prepare(
            `SELECT id, working_dir, created_at, ${col(s, 'name')}, ${col(s, 'description')}, ${col(s, 'user_set_name')}, ` +
              `${col(s, 'session_type')}, ${col(s, 'provider_name')}, ${col(s, 'model_config_json')} ` +
              'FROM sessions ORDER BY created_at, id',
          )
          .all() as Record<string, unknown>[]
      ).map(
        (r): GooseSessionRow => ({
          id: String(r.id),
          name:
            typeof r.name === 'string' && r.name !== ''
              ? r.name
              : typeof r.description === 'string'
                ? r.description
                : '',
          userSetName: r.user_set_name === 1 || r.user_set_name === true,
          sessionType: typeof r.session_type === 'string' ? r.session_type : 'user',
          workingDir: typeof r.working_dir === 'string' ? r.working_dir : '',
          createdAt: typeof r.created_at === 'string' ? r.created_at : '',
          providerName: typeof r.provider_name === 'string' ? r.provider_name : null,
          modelConfig: typeof r.model_config_json === 'string' ? r.model_config_json : null,
        }),
      );
      const messages = new Map<string, GooseMessageRow[]>();
      // Row order is insertion order: goose appends a row per message, and when it rewrites a
      // conversation (`replace_conversation`, after a compaction) it deletes the rows and inserts
      // them again in conversation order.
      for (const r of db
        .prepare(
          `SELECT id, session_id, role, content_json, created_timestamp, ${col(m, 'metadata_json')} FROM messages ORDER BY session_id, id`,
        )
        .iterate() as IterableIterator<Record<string, unknown>>) {
        const row: GooseMessageRow = {
          rowId: Number(r.id),
          role: String(r.role),
          content: String(r.content_json),
          created: Number(r.created_timestamp),
          metadata: typeof r.metadata_json === 'string' ? r.metadata_json : null,
        };
        const sessionId = String(r.session_id);
        const list = messages.get(sessionId);
        if (list === undefined) messages.set(sessionId, [row]);
        else list.push(row);
      }
      return { schemaVersion: version, sessions, messages };
    },
  );
}
