import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import Database from 'better-sqlite3';
import { SessionId } from '@strand/session';
import type { Peek, SourceUnit } from '../run/harness-importer.js';

const SQLITE_MAGIC = 'SQLite format 3\u0000';

export interface SqliteStoreShape {
  /** What the file would be, for the reasons: `an opencode database`, `a goose session store`. */
  readonly what: string;
  /** The tables that make a database this harness's store (recognised by content, not name). */
  readonly tables: readonly string[];
  /** The harness name the database's id starts with (`<prefix>-db-<digest>`). */
  readonly idPrefix: string;
  /** The peek's facts, handed to the mapping. */
  readonly facts?: unknown;
}

/**
 * Peeks a harness's SQLite store: its header, then its tables, read-only and never waiting long
 * for a lock. One database holds many sessions, so its `primaryId` names the database (a digest
 * of its path), never a session inside it: two databases are never taken for copies of one
 * session, and the sessions are found when it is mapped. A file that cannot be read, is locked
 * past the timeout or is corrupt has failed (the next run tries again); one that is not SQLite or
 * lacks the tables is skipped.
 */
export async function peekSqliteStore(unit: SourceUnit, shape: SqliteStoreShape): Promise<Peek> {
  const head = Buffer.alloc(16);
  let bytesRead: number;
  try {
    const handle = await fsp.open(unit.file, 'r');
    try {
      ({ bytesRead } = await handle.read(head, 0, 16, 0));
    } finally {
      await handle.close();
    }
  } catch (error) {
    return { kind: 'fail', reason: `cannot read the database: ${(error as Error).message}` };
  }
  if (bytesRead < 16 || head.toString('latin1') !== SQLITE_MAGIC)
    return { kind: 'skip', reason: `not ${shape.what} (not SQLite)` };
  let db: Database.Database | undefined;
  try {
    db = new Database(unit.file, { readonly: true, fileMustExist: true, timeout: 2000 });
    const tables = new Set(
      (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map(
        (t) => t.name,
      ),
    );
    if (!shape.tables.every((t) => tables.has(t)))
      return { kind: 'skip', reason: `not ${shape.what} (no ${spoken(shape.tables)} tables)` };
  } catch (error) {
    // Locked past the timeout, or corrupt: failed, so the next run tries again.
    return { kind: 'fail', reason: `cannot read the database: ${(error as Error).message}` };
  } finally {
    db?.close();
  }
  const digest = createHash('sha1').update(unit.file).digest('hex').slice(0, 16);
  return {
    kind: 'session',
    primaryId: SessionId(`${shape.idPrefix}-db-${digest}`),
    rank: 0,
    depth: 0,
    facts: shape.facts ?? {},
  };
}

/** `a`, `a and b`, `a, b and c`. */
function spoken(names: readonly string[]): string {
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)!}`;
}

/** One read of a harness's SQLite store. */
export type SqliteStoreRead<Snapshot> =
  | { readonly kind: 'store'; readonly snapshot: Snapshot }
  /** A SQLite file, but not this harness's store (its tables missing, or of another shape). */
  | { readonly kind: 'foreign'; readonly reason: string }
  /** Not readable now: locked past the timeout, corrupt, truncated, mid-migration. */
  | { readonly kind: 'unreadable'; readonly reason: string };

/** What makes a database a harness's store, for `readSqliteStore`. */
export interface SqliteStoreSchema {
  /** What the database would be, for the reasons: `an opencode database`, `a goose session store`. */
  readonly what: string;
  /** The columns each table must have; a table without one is of an unknown schema version. */
  readonly needed: Readonly<Record<string, readonly string[]>>;
}

/**
 * Reads a harness's SQLite store: opened read-only, so over its WAL (every harness here opens its
 * store in WAL mode) and never locking the harness out; the needed tables and columns checked
 * first; then `read` runs in one read transaction, so the snapshot is consistent while the
 * harness keeps committing. `read` is given each needed table's columns, to read the optional
 * ones where a schema version has them. Busy past the timeout, corrupt or truncated: unreadable,
 * retried on the next run.
 */
export function readSqliteStore<Snapshot>(
  file: string,
  busyTimeoutMs: number,
  schema: SqliteStoreSchema,
  read: (db: Database.Database, columns: ReadonlyMap<string, ReadonlySet<string>>) => Snapshot,
): SqliteStoreRead<Snapshot> {
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true, timeout: busyTimeoutMs });
  } catch (error) {
    return { kind: 'unreadable', reason: `cannot open: ${(error as Error).message}` };
  }
  try {
    const columns = new Map<string, ReadonlySet<string>>();
    for (const [table, needed] of Object.entries(schema.needed)) {
      const have = new Set(
        (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name),
      );
      if (have.size === 0)
        return { kind: 'foreign', reason: `no ${table} table (not ${schema.what}, or not migrated yet)` };
      const missing = needed.filter((c) => !have.has(c));
      if (missing.length > 0)
        return {
          kind: 'foreign',
          reason: `${table} table without ${missing.join(', ')} (an unknown schema version)`,
        };
      columns.set(table, have);
    }
    return { kind: 'store', snapshot: db.transaction(() => read(db, columns))() };
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'SQLITE_NOTADB') return { kind: 'foreign', reason: 'not a SQLite database' };
    return { kind: 'unreadable', reason: `cannot read: ${(error as Error).message}` };
  } finally {
    db.close();
  }
}
