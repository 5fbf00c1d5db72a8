import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';

/**
 * The change marker of a session database (`SessionPersistence.changeMarker`): one row holding
 * a random id of this database and a counter that triggers on `sessions` bump with every insert
 * (a session reaching storage), delete, and change of incarnation — in the writing transaction,
 * so every process and tool writing the file moves it, and a reader sees the counter and the
 * sessions of one committed state. Appends update `sessions` too but touch neither the set of
 * sessions nor an incarnation: they do not move it. The database id keeps a marker recorded
 * against one file from matching another file's counter (a restored backup, a new folder).
 *
 * Additive: the schema version stays 1. A build without this file's objects reads and writes the
 * database as before, and its writes still move the counter (the triggers are in the file).
 */
const CHANGE_MARKER_DDL = `
CREATE TABLE IF NOT EXISTS change_marker (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  database TEXT NOT NULL,
  changes INTEGER NOT NULL
) STRICT;
CREATE TRIGGER IF NOT EXISTS sessions_marker_insert AFTER INSERT ON sessions
  BEGIN UPDATE change_marker SET changes = changes + 1; END;
CREATE TRIGGER IF NOT EXISTS sessions_marker_delete AFTER DELETE ON sessions
  BEGIN UPDATE change_marker SET changes = changes + 1; END;
CREATE TRIGGER IF NOT EXISTS sessions_marker_incarnation AFTER UPDATE OF incarnation ON sessions
  WHEN old.incarnation IS NOT new.incarnation
  BEGIN UPDATE change_marker SET changes = changes + 1; END;
`;

/** The objects above, by name: present in full, the file needs no write at open. */
const OBJECTS = [
  'change_marker',
  'sessions_marker_insert',
  'sessions_marker_delete',
  'sessions_marker_incarnation',
];

/**
 * Gives the database its change marker if it lacks it (a file from before it, or a new one).
 * Checked with a read first, so an opened file that has it is not written; created in one
 * IMMEDIATE transaction that re-creates only what is missing (`IF NOT EXISTS`, `INSERT OR
 * IGNORE`), so two processes opening an older file together both succeed and one counter row and
 * one database id result.
 */
export function ensureChangeMarker(db: Database.Database): void {
  if (hasChangeMarker(db)) return;
  db.transaction(() => {
    db.exec(CHANGE_MARKER_DDL);
    db.prepare('INSERT OR IGNORE INTO change_marker (id, database, changes) VALUES (1, ?, 0)').run(
      randomUUID(),
    );
  }).immediate();
}

function hasChangeMarker(db: Database.Database): boolean {
  const found = db
    .prepare(`SELECT count(*) FROM sqlite_schema WHERE name IN (${OBJECTS.map(() => '?').join(', ')})`)
    .pluck()
    .get(...OBJECTS) as number;
  if (found !== OBJECTS.length) return false;
  return db.prepare('SELECT count(*) FROM change_marker').pluck().get() === 1;
}

/** Reads the marker: `<database id>:<changes>`. */
export function changeMarkerStatement(db: Database.Database): () => string | undefined {
  const read = db.prepare<[], [string, number]>('SELECT database, changes FROM change_marker').raw(true);
  return () => {
    const row = read.get();
    return row === undefined ? undefined : `${row[0]}:${row[1]}`;
  };
}
