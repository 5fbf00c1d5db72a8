import type pg from 'pg';
import { SearchIndexError } from '@strand/search';
import { FACT_COLUMNS, type FactValues, type SessionRow } from '@strand/search/kit';
import type { SessionId } from '@strand/session';
import { COLUMNS, toRow, type RawRow } from './pg-index-store.js';

/** What a session's bookkeeping row is created with when the index has none (`begin`'s insert). */
export interface NewRow {
  readonly sessionId: SessionId;
  readonly incarnation: string | null;
  readonly ownFrom: number;
  readonly facts: FactValues;
}

/** A group's bookkeeping rows, locked for its transaction. */
export interface LockedRows {
  readonly rows: ReadonlyMap<SessionId, SessionRow>;
  /** Sessions whose row this transaction created (`begin` returns those as they are). */
  readonly created: ReadonlySet<SessionId>;
}

const LOCK = `SELECT ${COLUMNS} FROM search_sessions WHERE session_id = ANY($1::text[])
ORDER BY session_id FOR UPDATE`;

const CREATE = `
INSERT INTO search_sessions (session_id, incarnation, revision, cut, durable_cut, own_from, ${FACT_COLUMNS})
SELECT r.session_id, r.incarnation, NULL, 0, 0, r.own_from, r.cwd, r.project_name, r.harness, r.parent_session, r.origin, r.forked_from
FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[])
  AS r (session_id, incarnation, own_from, cwd, project_name, harness, parent_session, origin, forked_from)
ORDER BY r.session_id
ON CONFLICT (session_id) DO NOTHING RETURNING ${COLUMNS}`;

/**
 * Locks the bookkeeping rows of a group of sessions, creating those the index has none of, in two
 * statements: the existing rows locked `FOR UPDATE` and the missing ones inserted, both in
 * `session_id` order. Every writer takes these locks either one row per transaction (`PgIndexStore`)
 * or in this one order, so two hosts' groups wait for each other instead of deadlocking; a deadlock
 * PostgreSQL still reports (a row another host created between the two statements) is retried by
 * `SearchDatabase.transaction`. A row created by another host between the statements is locked on
 * the next round, as `PgIndexStore.begin` does for one.
 */
export async function lockGroupRows(client: pg.ClientBase, wanted: readonly NewRow[]): Promise<LockedRows> {
  const rows = new Map<SessionId, SessionRow>();
  const created = new Set<SessionId>();
  // A session listed twice is created as its first listing would create it.
  const first = new Map<SessionId, NewRow>();
  for (const w of wanted) if (!first.has(w.sessionId)) first.set(w.sessionId, w);
  let missing = [...first.values()];
  for (let attempt = 0; attempt < 3 && missing.length > 0; attempt++) {
    const locked = await client.query<RawRow>(LOCK, [missing.map((w) => w.sessionId)]);
    for (const raw of locked.rows) rows.set(raw.session_id as SessionId, toRow(raw));
    missing = missing.filter((w) => !rows.has(w.sessionId));
    if (missing.length === 0) break;
    const inserted = await client.query<RawRow>(CREATE, [
      missing.map((w) => w.sessionId),
      missing.map((w) => w.incarnation),
      missing.map((w) => w.ownFrom),
      ...FACT_INDEXES.map((i) => missing.map((w) => w.facts[i])),
    ]);
    for (const raw of inserted.rows) {
      rows.set(raw.session_id as SessionId, toRow(raw));
      created.add(raw.session_id as SessionId);
    }
    missing = missing.filter((w) => !rows.has(w.sessionId));
  }
  const [lost] = missing;
  if (lost !== undefined)
    throw new SearchIndexError(
      'SEARCH_INDEX_FAILED',
      `session ${lost.sessionId}: its search bookkeeping row kept vanishing under concurrent drops`,
      { sessionId: lost.sessionId },
    );
  return { rows, created };
}

/** The positions of `FactValues`, in `FACT_COLUMNS` order. */
export const FACT_INDEXES = [0, 1, 2, 3, 4, 5] as const;
