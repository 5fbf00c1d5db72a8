import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { Decompressor } from 'zstd-napi';

/**
 * The floor for a cold read: read the same bytes, decompress, `JSON.parse` each line — nothing
 * else (no validation, no freezing, no seq checks). Returns the number of events parsed.
 */
export function jsonlFloor(file: string): number {
  const text = new Decompressor().decompress(readFileSync(file)).toString('utf8');
  let count = -1; // the first line is the header record
  let start = 0;
  for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
    JSON.parse(text.slice(start, nl));
    start = nl + 1;
    count++;
  }
  return count;
}

/** SQLite's floor: read the session's event rows and `JSON.parse` each data column. */
export function sqliteFloor(dbFile: string, sessionId: string): number {
  const db = new Database(dbFile, { readonly: true });
  try {
    const rows = db
      .prepare(
        'SELECT e.type, e.seq, e.time, e.data FROM events e JOIN sessions s ON s.key = e.session_key WHERE s.id = ? ORDER BY e.seq',
      )
      .raw()
      .all(sessionId) as [string, number, number, string][];
    for (const row of rows) JSON.parse(row[3]);
    return rows.length;
  } finally {
    db.close();
  }
}
