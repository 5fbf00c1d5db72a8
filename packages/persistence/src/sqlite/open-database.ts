import Database from 'better-sqlite3';
import { PersistenceError } from '../errors.js';
import { SCHEMA_V1, SQLITE_APPLICATION_ID, SQLITE_SCHEMA_VERSION } from './schema.js';
import { toPersistenceError } from './sqlite-errors.js';
import { ensureChangeMarker } from './change-marker.js';

/**
 * Opens (or initializes) a Strand session database. The format is checked with read-only pragmas
 * *before* anything is written, so a foreign or newer database is refused untouched: WAL mode is
 * switched on only after the check passes.
 */
export function openDatabase(
  path: string,
  connect: (path: string) => Database.Database = (file) => new Database(file),
): Database.Database {
  let db: Database.Database;
  try {
    db = connect(path);
  } catch (error) {
    throw toPersistenceError(error, `opening SQLite database ${path}`);
  }
  try {
    // Its reads in one read transaction, so they see one state of the file: read apart, another
    // process initializing it between them made a fresh file look like another program's.
    const state = db.transaction(() => checkFormat(db, path)).deferred();
    // Page size only takes effect before the first table exists; 8 KiB keeps ~1 KB event rows
    // inside their b-tree page instead of spilling to overflow pages.
    if (state === 'empty') db.pragma('page_size = 8192');
    db.pragma('journal_mode = WAL');
    // FULL: a commit is fsynced before better-sqlite3 returns, so a resolved append is durable.
    db.pragma('synchronous = FULL');
    if (state === 'empty') initialize(db, path);
    // After the format checks: a foreign or newer file is refused before anything is added.
    ensureChangeMarker(db);
    return db;
  } catch (error) {
    db.close();
    if (error instanceof PersistenceError) throw error;
    if (error instanceof Database.SqliteError && error.code === 'SQLITE_NOTADB') {
      throw new PersistenceError('PERSISTENCE_FORMAT_UNSUPPORTED', `${path} is not a SQLite database`, {
        cause: error,
      });
    }
    throw toPersistenceError(error, `opening SQLite database ${path}`);
  }
}

function checkFormat(db: Database.Database, path: string): 'empty' | 'current' {
  const applicationId = db.pragma('application_id', { simple: true }) as number;
  const version = db.pragma('user_version', { simple: true }) as number;
  if (applicationId === 0) {
    const objects = db.prepare('SELECT count(*) FROM sqlite_schema').pluck().get() as number;
    if (objects === 0 && version === 0) return 'empty';
    refuse(`${path} is a SQLite database of another program (application_id 0, ${objects} schema objects)`);
  }
  if (applicationId !== SQLITE_APPLICATION_ID) {
    refuse(
      `${path} is not a Strand session database (application_id 0x${(applicationId >>> 0).toString(16)})`,
    );
  }
  if (version > SQLITE_SCHEMA_VERSION) {
    refuse(`${path} has schema version ${version}, newer than this build reads (${SQLITE_SCHEMA_VERSION})`);
  }
  if (version < 1) refuse(`${path} has a Strand application_id but no schema version`);
  return 'current';
}

function initialize(db: Database.Database, path: string): void {
  db.transaction(() => {
    // Re-checked under the write lock: another process may have initialized the file meanwhile.
    if (checkFormat(db, path) === 'current') return;
    db.exec(SCHEMA_V1);
    db.pragma(`application_id = ${SQLITE_APPLICATION_ID}`);
    db.pragma(`user_version = ${SQLITE_SCHEMA_VERSION}`);
  }).immediate();
}

function refuse(message: string): never {
  throw new PersistenceError('PERSISTENCE_FORMAT_UNSUPPORTED', message);
}
