import type { QueryArrayConfig } from 'pg';
import { APPENDS_CHANNEL } from './append-notice.js';

/*
 * Every statement the backend runs. Hot ones carry a `name`, so each pooled connection parses and
 * plans them once (node-postgres prepares a named statement on first use per connection). Reads
 * use array row mode: no per-row object with named keys is built. Values are always parameters;
 * the only interpolations are constants of this module.
 */

/** Bytes a batch row costs beyond its lines (keys, counts, row header), for `stored_bytes`. */
export const BATCH_ROW_OVERHEAD = 16;

/**
 * The append notice built inside the writing statement, since the new revision is known only
 * there. Byte-for-byte what `formatAppendNotice` produces: `to_json` escapes a string exactly as
 * `JSON.stringify` does for UTF-8 text, and integers print the same.
 */
function noticePayload(
  id: string,
  from: string,
  count: string,
  incarnation: string,
  revision: string,
): string {
  return `'{"id":' || to_json(${id}) || ',"incarnation":' || to_json(${incarnation})
  || ',"from":' || ${from} || ',"count":' || ${count}
  || ',"revision":' || to_json(${incarnation} || ':' || ${revision}) || '}'`;
}
const NOTICE_PAYLOAD = noticePayload('$1::text', '$2::int', '$3::int', 'incarnation', 'revision');

/**
 * The whole common append in ONE statement (one round trip, its own transaction): advance the
 * session row only if `next_seq` is still the batch's first seq (and, for repairs, the
 * incarnation is the one read), insert the batch row only if the row advanced, and notify only
 * if it did. Two hosts racing the same seq serialize on the row lock; the loser re-checks the
 * guard against the committed row and matches nothing, so nothing of it is written.
 * `$1` id, `$2` first seq, `$3` count, `$4` lines, `$5` required incarnation or null.
 * → `[incarnation, revision, stored_bytes]`, or no row when the guard failed.
 */
export function appendBatch(values: [string, number, number, string, string | null]): QueryArrayConfig {
  return {
    name: 'strand_persistence_append',
    rowMode: 'array',
    text: `WITH advanced AS (
        UPDATE strand_sessions
           SET next_seq = next_seq + $3::int, revision = revision + 1,
               stored_bytes = stored_bytes + octet_length($4::text) + ${BATCH_ROW_OVERHEAD}
         WHERE id = $1::text AND next_seq = $2::int AND ($5::text IS NULL OR incarnation = $5::text)
        RETURNING incarnation, revision, stored_bytes
      ), written AS (
        INSERT INTO strand_event_batches (session_id, first_seq, count, lines)
        SELECT $1::text, $2::int, $3::int, $4::text FROM advanced
      )
      SELECT incarnation, revision::text, stored_bytes::text,
             pg_notify('${APPENDS_CHANNEL}', ${NOTICE_PAYLOAD})
        FROM advanced`,
    values,
  };
}

/**
 * The first write of a lazily created session in ONE statement: insert the session row unless
 * the id is already stored (another host created it), then its first batch, then the notice.
 * `$1` id, `$2` first seq (0), `$3` count, `$4` lines, `$5` incarnation, `$6` header JSON,
 * `$7` inherited event count. → `[incarnation, revision, stored_bytes]`, or no row if it exists.
 */
export function createWithBatch(
  values: [string, number, number, string, string, string, number],
): QueryArrayConfig {
  return {
    name: 'strand_persistence_create',
    rowMode: 'array',
    text: `WITH created AS (
        INSERT INTO strand_sessions (id, incarnation, header, inherited_event_count, next_seq, revision, stored_bytes)
        VALUES ($1::text, $5::text, $6::text, $7::int, $2::int + $3::int, 1,
                octet_length($6::text) + octet_length($4::text) + ${BATCH_ROW_OVERHEAD})
        ON CONFLICT (id) DO NOTHING
        RETURNING incarnation, revision, stored_bytes
      ), written AS (
        INSERT INTO strand_event_batches (session_id, first_seq, count, lines)
        SELECT $1::text, $2::int, $3::int, $4::text FROM created
      )
      SELECT incarnation, revision::text, stored_bytes::text,
             pg_notify('${APPENDS_CHANNEL}', ${NOTICE_PAYLOAD})
        FROM created`,
    values,
  };
}

/** The columns of `appendRound`, one array each, one element per write of the round. */
export interface RoundColumns {
  readonly ids: string[];
  readonly firstSeqs: number[];
  readonly counts: number[];
  readonly lines: string[];
  /** A first write: the new incarnation; otherwise the required one (a repair) or null. */
  readonly incarnations: (string | null)[];
  /** A first write: the header JSON (the session row is created); null for an append. */
  readonly headers: (string | null)[];
  readonly inheritedEventCounts: number[];
}

/**
 * A round of writes to DIFFERENT sessions in ONE statement (one round trip, one transaction, one
 * commit): each element is `appendBatch` (a guarded advance) or, with a header, `createWithBatch`
 * (a first write). Each write is judged by its own row: one whose guard fails, or whose id another
 * host created first, matches nothing and writes nothing, while the others commit. Each written
 * one sends its own notice. → `[id, incarnation, revision, stored_bytes]` per written session;
 * a write without a row was refused.
 */
export function appendRound(columns: RoundColumns): QueryArrayConfig {
  return {
    name: 'strand_persistence_append_round',
    rowMode: 'array',
    text: `WITH input AS (
        SELECT * FROM unnest($1::text[], $2::int[], $3::int[], $4::text[], $5::text[], $6::text[], $7::int[])
            AS i(id, first_seq, count, lines, incarnation, header, inherited)
      ), created AS (
        INSERT INTO strand_sessions (id, incarnation, header, inherited_event_count, next_seq, revision, stored_bytes)
        SELECT id, incarnation, header, inherited, first_seq + count, 1,
               octet_length(header) + octet_length(lines) + ${BATCH_ROW_OVERHEAD}
          FROM input WHERE header IS NOT NULL
        ON CONFLICT (id) DO NOTHING
        RETURNING id, incarnation, revision, stored_bytes
      ), advanced AS (
        UPDATE strand_sessions s
           SET next_seq = s.next_seq + i.count, revision = s.revision + 1,
               stored_bytes = s.stored_bytes + octet_length(i.lines) + ${BATCH_ROW_OVERHEAD}
          FROM input i
         WHERE i.header IS NULL AND s.id = i.id AND s.next_seq = i.first_seq
           AND (i.incarnation IS NULL OR s.incarnation = i.incarnation)
        RETURNING s.id, s.incarnation, s.revision, s.stored_bytes
      ), done AS (
        SELECT * FROM created UNION ALL SELECT * FROM advanced
      ), written AS (
        INSERT INTO strand_event_batches (session_id, first_seq, count, lines)
        SELECT i.id, i.first_seq, i.count, i.lines FROM input i JOIN done d ON d.id = i.id
      )
      SELECT d.id, d.incarnation, d.revision::text, d.stored_bytes::text,
             pg_notify('${APPENDS_CHANNEL}',
                       ${noticePayload('d.id', 'i.first_seq', 'i.count', 'd.incarnation', 'd.revision')})
        FROM done d JOIN input i ON i.id = d.id`,
    values: [
      columns.ids,
      columns.firstSeqs,
      columns.counts,
      columns.lines,
      columns.incarnations,
      columns.headers,
      columns.inheritedEventCounts,
    ],
  };
}

/** Transaction path: the session row of a first write. → `[revision]`, or no row if it exists. */
export function insertSession(values: [string, string, string, number, number, number]): QueryArrayConfig {
  return {
    name: 'strand_persistence_insert_session',
    rowMode: 'array',
    text: `INSERT INTO strand_sessions (id, incarnation, header, inherited_event_count, next_seq, revision, stored_bytes)
           VALUES ($1, $2, $3, $4, $5, 1, $6) ON CONFLICT (id) DO NOTHING RETURNING revision::text`,
    values,
  };
}

/** Transaction path: the guarded advance. `$1` id, `$2` first seq, `$3` count, `$4` bytes, `$5` incarnation or null. */
export function advanceSession(values: [string, number, number, number, string | null]): QueryArrayConfig {
  return {
    name: 'strand_persistence_advance',
    rowMode: 'array',
    text: `UPDATE strand_sessions
              SET next_seq = next_seq + $3::int, revision = revision + 1, stored_bytes = stored_bytes + $4::bigint
            WHERE id = $1::text AND next_seq = $2::int AND ($5::text IS NULL OR incarnation = $5::text)
           RETURNING incarnation, revision::text, stored_bytes::text`,
    values,
  };
}

export function insertBatch(values: [string, number, number, string]): QueryArrayConfig {
  return {
    name: 'strand_persistence_insert_batch',
    rowMode: 'array',
    text: 'INSERT INTO strand_event_batches (session_id, first_seq, count, lines) VALUES ($1, $2, $3, $4)',
    values,
  };
}

export function notify(payload: string): QueryArrayConfig {
  return { rowMode: 'array', text: 'SELECT pg_notify($1, $2)', values: [APPENDS_CHANNEL, payload] };
}

/** `[incarnation, next_seq]` of a stored session: why a guarded write matched nothing. */
export function sessionState(id: string): QueryArrayConfig {
  return {
    name: 'strand_persistence_state',
    rowMode: 'array',
    text: 'SELECT incarnation, next_seq FROM strand_sessions WHERE id = $1',
    values: [id],
  };
}

/** `[database, changes]`: the change marker (schema.ts, version 2). */
export function changeMarker(): QueryArrayConfig {
  return {
    name: 'strand_persistence_change_marker',
    rowMode: 'array',
    text: 'SELECT database, changes::text FROM strand_session_changes WHERE id = 1',
  };
}

/** `[incarnation, revision]`: the cheap revision read (no body). */
export function revisionOf(id: string): QueryArrayConfig {
  return {
    name: 'strand_persistence_revision',
    rowMode: 'array',
    text: 'SELECT incarnation, revision::text FROM strand_sessions WHERE id = $1',
    values: [id],
  };
}

/** `[id, incarnation, header, revision, stored_bytes]` of every stored session: one query, no body. */
export function listSessions(): QueryArrayConfig {
  return {
    name: 'strand_persistence_list',
    rowMode: 'array',
    text: 'SELECT id, incarnation, header, revision::text, stored_bytes::text FROM strand_sessions ORDER BY id',
  };
}

/** The cursor `listChunks` walks in: `listSessions`'s rows in code point order (`COLLATE "C"`). */
export const LIST_CURSOR = 'strand_persistence_list_cursor';

export function declareListCursor(): string {
  return `DECLARE ${LIST_CURSOR} NO SCROLL CURSOR FOR SELECT id, incarnation, header, revision::text, stored_bytes::text FROM strand_sessions ORDER BY id COLLATE "C"`;
}

/** The next `count` rows of the cursor (fewer at its end). */
export function fetchListCursor(count: number): QueryArrayConfig {
  return { rowMode: 'array', text: `FETCH FORWARD ${Math.trunc(count)} FROM ${LIST_CURSOR}` };
}

/** The columns of a log read: the session row on every line, then one batch (or nulls). */
const LOG_COLUMNS = `s.incarnation, s.header, s.inherited_event_count, s.next_seq, s.revision::text,
  s.stored_bytes::text, b.first_seq, b.count, b.lines`;

/**
 * The whole log in ONE statement, hence one snapshot: a concurrent commit cannot slip between
 * the session row and its batches. A stored session with no batch still yields its row.
 */
export function readLog(id: string): QueryArrayConfig {
  return {
    name: 'strand_persistence_read_log',
    rowMode: 'array',
    text: `SELECT ${LOG_COLUMNS}
             FROM strand_sessions s
             LEFT JOIN strand_event_batches b ON b.session_id = s.id
            WHERE s.id = $1
            ORDER BY b.first_seq`,
    values: [id],
  };
}

/**
 * The batches holding seqs `>= $2`: the index range starts at the batch containing `$2` (the
 * last one starting at or before it, one backward index probe), so nothing before it is read.
 */
export function readSuffix(id: string, from: number): QueryArrayConfig {
  return {
    name: 'strand_persistence_read_suffix',
    rowMode: 'array',
    text: `SELECT ${LOG_COLUMNS}
             FROM strand_sessions s
             LEFT JOIN strand_event_batches b ON b.session_id = s.id
                  AND b.first_seq >= COALESCE(
                        (SELECT max(first_seq) FROM strand_event_batches WHERE session_id = $1 AND first_seq <= $2::bigint), 0)
                  AND b.first_seq + b.count > $2::bigint
            WHERE s.id = $1
            ORDER BY b.first_seq`,
    values: [id, from],
  };
}

export function insertAttachment(values: [string, string, string, Buffer]): QueryArrayConfig {
  return {
    name: 'strand_persistence_insert_attachment',
    rowMode: 'array',
    text: `INSERT INTO strand_attachments (session_id, ref, media_type, bytes) VALUES ($1, $2, $3, $4)
           ON CONFLICT (session_id, ref) DO NOTHING`,
    values,
  };
}

/**
 * `[media_type, bytes]` of one attachment: no row when the session is not stored, a row of nulls
 * when it is but holds no such attachment — one round trip tells the two errors apart.
 */
export function readAttachment(id: string, ref: string): QueryArrayConfig {
  return {
    name: 'strand_persistence_read_attachment',
    rowMode: 'array',
    text: `SELECT a.media_type, a.bytes
             FROM strand_sessions s
             LEFT JOIN strand_attachments a ON a.session_id = s.id AND a.ref = $2
            WHERE s.id = $1`,
    values: [id, ref],
  };
}

export function deleteSession(id: string): QueryArrayConfig {
  return {
    name: 'strand_persistence_delete',
    rowMode: 'array',
    text: 'DELETE FROM strand_sessions WHERE id = $1',
    values: [id],
  };
}
