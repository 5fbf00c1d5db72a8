import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { DatabaseLiveCase } from './database-live.js';

/**
 * opencode fixtures are kept as JSON dumps of what the real harness wrote — its own `CREATE
 * TABLE` statements and every row of the `session`, `message` and `part` tables, column by
 * column — not as SQLite files: a dump is small, reviewable and deterministic, and holds nothing
 * of the database's other tables (accounts, credentials). `restoreOpencodeDb` re-creates the
 * database (WAL mode, as opencode opens it) for a test; the rows are the harness's, byte for byte.
 */
export interface OpencodeDump {
  /** opencode, or a fork that keeps its store (kilo: `kilo.db`, the same tables). */
  readonly harness: 'opencode' | 'kilo';
  /** The version that wrote the rows. */
  readonly version: string;
  readonly scenario: string;
  readonly schema: Readonly<Record<string, string>>;
  readonly rows: Readonly<Record<string, readonly Record<string, unknown>[]>>;
}

export const DUMPED_TABLES = ['session', 'message', 'part'] as const;

/** Dumps an opencode (or kilo) database (read-only) into the fixture shape. */
export function dumpOpencodeDb(
  file: string,
  scenario: string,
  harness: OpencodeDump['harness'] = 'opencode',
): OpencodeDump {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const schema: Record<string, string> = {};
    const rows: Record<string, Record<string, unknown>[]> = {};
    let version = '';
    for (const table of DUMPED_TABLES) {
      const sql = db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) as
        | { sql: string }
        | undefined;
      if (sql === undefined) throw new Error(`${file}: no ${table} table`);
      schema[table] = sql.sql;
      rows[table] = db.prepare(`SELECT * FROM ${table} ORDER BY rowid`).all() as Record<string, unknown>[];
    }
    for (const s of rows.session ?? []) if (typeof s.version === 'string') version = s.version;
    return { harness, version, scenario, schema, rows };
  } finally {
    db.close();
  }
}

/**
 * Writes the database a dump holds to `file` (its folder created), in WAL mode. `limit` keeps
 * only the first rows of the `message` table (and the parts of those messages), in row order:
 * the database as it stood earlier in the run, for the prefix-law check.
 */
export function restoreOpencodeDb(dump: OpencodeDump, file: string, limit?: { messages: number }): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    // The dump leaves out `project`, which `session` references.
    db.pragma('foreign_keys = OFF');
    for (const table of DUMPED_TABLES) db.exec(dump.schema[table]!);
    db.transaction(() => {
      for (const row of dump.rows.session ?? []) insert(db, 'session', row);
    })();
    appendMessages(db, dump, 0, limit?.messages);
  } finally {
    db.close();
  }
}

/**
 * Writes the dump's messages `from` (inclusive) to `to` (exclusive) with their parts into an open
 * database, one transaction per message, as opencode commits them.
 */
export function appendMessages(db: Database.Database, dump: OpencodeDump, from: number, to?: number): void {
  const parts = dump.rows.part ?? [];
  for (const message of (dump.rows.message ?? []).slice(from, to))
    db.transaction(() => {
      insert(db, 'message', message);
      for (const part of parts) if (part.message_id === message.id) insert(db, 'part', part);
    })();
}

function insert(db: Database.Database, table: string, row: Record<string, unknown>): void {
  const columns = Object.keys(row);
  db.prepare(
    `INSERT INTO ${table} (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
  ).run(...columns.map((c) => row[c]));
}

export function readDump(file: string): OpencodeDump {
  return JSON.parse(readFileSync(file, 'utf8')) as OpencodeDump;
}

export function writeDump(dump: OpencodeDump, file: string): void {
  writeFileSync(file, `${JSON.stringify(dump, null, 1)}\n`);
}

/**
 * The live-ingest case of a store of opencode's schema (opencode's `opencode.db`, kilo's
 * `kilo.db`): the dump's first two messages written earlier, the rest committed by the harness's
 * own connection while watched.
 */
export function opencodeStyleLiveCase(harness: 'opencode' | 'kilo', dump: OpencodeDump): DatabaseLiveCase {
  return {
    harness,
    file: `${harness}.db`,
    session: `${harness}-${String(dump.rows.session![0]!.id)}`,
    rows: 'messages',
    restoreEarlier: (file) => {
      restoreOpencodeDb(dump, file, { messages: 2 });
      const connection = new Database(file);
      connection.pragma('journal_mode = WAL');
      connection.pragma('foreign_keys = OFF');
      return connection;
    },
    commitRest: (connection) => appendMessages(connection, dump, 2),
    restoreWhole: (file) => restoreOpencodeDb(dump, file),
  };
}
