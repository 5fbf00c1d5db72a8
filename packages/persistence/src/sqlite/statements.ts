import type Database from 'better-sqlite3';

/** Per-event bytes beyond type and data (key, seq, time, record header), for `stored_bytes`. */
const EVENT_ROW_OVERHEAD = 16;

/** `[key, incarnation, header JSON, inherited_event_count, next_seq, revision, stored_bytes]` */
export type SessionRow = [number, string, string, number, number, number, number];
/** `[id, incarnation, header JSON, revision, stored_bytes]` */
export type SummaryRow = [string, string, string, number, number];
export interface AdvanceParams {
  readonly next: number;
  readonly key: number;
  readonly from: number;
}
/** `[seq, type, time, data JSON]` */
export type EventRow = [number, string, number, string];

/**
 * Every statement the backend runs, prepared once per connection. Reads of whole rows use raw
 * (array) mode: no per-row object with named keys is built in the hot loops.
 */
export interface Statements {
  readonly sessionById: Database.Statement<[string], SessionRow>;
  readonly sessionKey: Database.Statement<[string], number>;
  readonly revisionOf: Database.Statement<[string], [string, number]>;
  readonly listSessions: Database.Statement<[], SummaryRow>;
  /** `[after, limit]`: the next keyset page of `listSessions` (ids are non-empty, so `''` starts). */
  readonly listSessionsAfter: Database.Statement<[string, number], SummaryRow>;
  readonly insertSession: Database.Statement<[string, string, string, number, number]>;
  /** `{ next, key, from }` (new and old next_seq) → `[revision, stored_bytes]`, or undefined if the log moved. */
  readonly advanceSession: Database.Statement<[AdvanceParams], [number, number]>;
  readonly insertEvent: Database.Statement<[number, number, string, number, string]>;
  readonly eventsOf: Database.Statement<[number], EventRow>;
  readonly eventsFrom: Database.Statement<[number, number], EventRow>;
  readonly insertAttachment: Database.Statement<[number, string, string, Buffer]>;
  readonly attachment: Database.Statement<[number, string], [string, Buffer]>;
  readonly deleteEvents: Database.Statement<[number]>;
  readonly deleteAttachments: Database.Statement<[number]>;
  readonly deleteSession: Database.Statement<[number]>;
}

export function prepareStatements(db: Database.Database): Statements {
  return {
    sessionById: db
      .prepare<
        [string],
        SessionRow
      >('SELECT key, incarnation, header, inherited_event_count, next_seq, revision, stored_bytes FROM sessions WHERE id = ?')
      .raw(),
    sessionKey: db.prepare<[string], number>('SELECT key FROM sessions WHERE id = ?').pluck(),
    revisionOf: db
      .prepare<[string], [string, number]>('SELECT incarnation, revision FROM sessions WHERE id = ?')
      .raw(),
    listSessions: db
      .prepare<
        [],
        SummaryRow
      >('SELECT id, incarnation, header, revision, stored_bytes FROM sessions ORDER BY id')
      .raw(),
    listSessionsAfter: db
      .prepare<
        [string, number],
        SummaryRow
      >('SELECT id, incarnation, header, revision, stored_bytes FROM sessions WHERE id > ? ORDER BY id LIMIT ?')
      .raw(),
    insertSession: db.prepare(
      'INSERT INTO sessions (id, incarnation, header, inherited_event_count, next_seq, revision, stored_bytes) VALUES (?, ?, ?, ?, 0, 0, ?)',
    ),
    // The caller has just read next_seq inside the same write transaction; the guard on next_seq
    // makes a lost race visible as no row instead of a silently forked log. The batch's bytes are
    // summed by SQLite from the rows just written (octet_length reads only the record header),
    // which is cheaper than measuring every UTF-8 length in JavaScript.
    advanceSession: db
      .prepare<[AdvanceParams], [number, number]>(
        `UPDATE sessions SET next_seq = @next, revision = revision + 1, stored_bytes = stored_bytes +
           (SELECT coalesce(sum(octet_length(type) + octet_length(data) + ${EVENT_ROW_OVERHEAD}), 0) FROM events WHERE session_key = @key AND seq >= @from)
         WHERE key = @key AND next_seq = @from RETURNING revision, stored_bytes`,
      )
      .raw(),
    insertEvent: db.prepare('INSERT INTO events (session_key, seq, type, time, data) VALUES (?, ?, ?, ?, ?)'),
    eventsOf: db
      .prepare<
        [number],
        EventRow
      >('SELECT seq, type, time, data FROM events WHERE session_key = ? ORDER BY seq')
      .raw(),
    eventsFrom: db
      .prepare<
        [number, number],
        EventRow
      >('SELECT seq, type, time, data FROM events WHERE session_key = ? AND seq >= ? ORDER BY seq')
      .raw(),
    insertAttachment: db.prepare(
      'INSERT OR IGNORE INTO attachments (session_key, ref, media_type, bytes) VALUES (?, ?, ?, ?)',
    ),
    attachment: db
      .prepare<
        [number, string],
        [string, Buffer]
      >('SELECT media_type, bytes FROM attachments WHERE session_key = ? AND ref = ?')
      .raw(),
    deleteEvents: db.prepare('DELETE FROM events WHERE session_key = ?'),
    deleteAttachments: db.prepare('DELETE FROM attachments WHERE session_key = ?'),
    deleteSession: db.prepare('DELETE FROM sessions WHERE key = ?'),
  };
}
