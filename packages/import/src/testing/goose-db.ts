import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

/**
 * goose fixtures are JSON dumps of a `sessions.db` — goose's own `CREATE TABLE` statements for
 * `schema_version`, `sessions` and `messages`, and their rows — built from goose's source (no
 * goose binary runs here; see `goose/fixtures/SOURCES.md`). `restoreGooseDb` writes the database
 * (WAL mode, as goose opens it) for a test.
 */
export interface GooseDump {
  readonly harness: 'goose';
  readonly scenario: string;
  /** What the rows and statements were built from (goose source files and commits). */
  readonly basis: string;
  readonly schemaVersion: number;
  readonly schema: Readonly<Record<string, string>>;
  readonly rows: {
    readonly sessions: readonly Record<string, unknown>[];
    readonly messages: readonly Record<string, unknown>[];
  };
}

/**
 * Writes the database a dump holds to `file` (its folder created), in WAL mode. `limit` keeps
 * only the first rows of `messages`, in row order: the database as it stood earlier.
 */
export function restoreGooseDb(
  dump: GooseDump,
  file: string,
  limit?: { messages: number },
): Database.Database {
  mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  for (const sql of Object.values(dump.schema)) db.exec(sql);
  db.prepare('INSERT INTO schema_version (version) VALUES (?)').run(dump.schemaVersion);
  db.transaction(() => {
    for (const row of dump.rows.sessions) insert(db, 'sessions', row);
  })();
  appendGooseMessages(db, dump, 0, limit?.messages);
  return db;
}

/** Inserts the dump's messages `from` (inclusive) to `to` (exclusive), one transaction each, as goose commits them. */
export function appendGooseMessages(db: Database.Database, dump: GooseDump, from: number, to?: number): void {
  for (const message of dump.rows.messages.slice(from, to))
    db.transaction(() => insert(db, 'messages', message))();
}

function insert(db: Database.Database, table: string, row: Record<string, unknown>): void {
  const columns = Object.keys(row);
  db.prepare(
    `INSERT INTO ${table} (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
  ).run(...columns.map((c) => row[c]));
}

export function readGooseDump(file: string): GooseDump {
  return JSON.parse(readFileSync(file, 'utf8')) as GooseDump;
}
