import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

/**
 * crush fixtures are JSON dumps, as opencode's are (`opencode-db.ts`): the statements that make
 * the schema (crush's own migrations, in order) and the rows of `sessions` and `messages`, column
 * by column. `restoreCrushDb` re-creates the database, in WAL mode as crush opens it.
 */
export interface CrushDump {
  readonly harness: 'crush';
  /** What wrote the rows: a crush version, or `synthetic` with the source they follow. */
  readonly version: string;
  readonly scenario: string;
  /** Where the database lies below a project (`.crush/crush.db`, opencode-go's `.opencode/opencode.db`). */
  readonly file: string;
  readonly schema: readonly string[];
  readonly rows: {
    readonly sessions: readonly Record<string, unknown>[];
    readonly messages: readonly Record<string, unknown>[];
  };
}

/**
 * Writes the database a dump holds to `file` (its folder created), in WAL mode. `limit` keeps
 * only the first message rows (in row order): the database as it stood earlier in the run.
 */
export function restoreCrushDb(dump: CrushDump, file: string, limit?: { messages: number }): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    for (const statement of dump.schema) db.exec(statement);
    db.transaction(() => {
      for (const row of dump.rows.sessions) insert(db, 'sessions', row);
    })();
    appendCrushMessages(db, dump, 0, limit?.messages);
  } finally {
    db.close();
  }
}

/** Writes the dump's messages `from` (inclusive) to `to` (exclusive), one transaction each. */
export function appendCrushMessages(db: Database.Database, dump: CrushDump, from: number, to?: number): void {
  for (const message of dump.rows.messages.slice(from, to))
    db.transaction(() => insert(db, 'messages', message))();
}

export function insert(db: Database.Database, table: string, row: Record<string, unknown>): void {
  const columns = Object.keys(row);
  db.prepare(
    `INSERT INTO ${table} (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
  ).run(...columns.map((c) => row[c]));
}

export function readCrushDump(file: string): CrushDump {
  return JSON.parse(readFileSync(file, 'utf8')) as CrushDump;
}
