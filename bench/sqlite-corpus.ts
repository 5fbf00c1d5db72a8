import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

/** A new corpus database at `file` (its folder made), in WAL mode, as the harnesses open theirs. */
export function createCorpusDb(file: string): Database.Database {
  mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  return db;
}

/** A closed corpus database's bytes on disk: the file, and its WAL if one is left. */
export function dbBytesOnDisk(file: string): number {
  let bytes = statSync(file).size;
  try {
    bytes += statSync(`${file}-wal`).size;
  } catch {
    // Closing the last connection checkpointed the WAL away.
  }
  return bytes;
}
