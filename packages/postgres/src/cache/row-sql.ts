import type pg from 'pg';
import type { CacheRow } from '@strand/projection-cache';
import { forgetListHints, upsertListRow, writeListChange, type ListChange } from './list-sql.js';
import type { IdentityRows, RowChange } from './mirror.js';
import { CACHE_CHANNEL } from './schema.js';

const COLUMNS = 'session_id, incarnation, inherited_cut, key, state_version, cut, state';

type StoredRow = [
  sessionId: string,
  incarnation: string,
  inheritedCut: string,
  key: string,
  stateVersion: number,
  cut: string,
  state: string,
];

/**
 * Rows of the given session ids (every row when omitted), grouped by session id and identity.
 * bigint columns arrive as strings; `Number` keeps a damaged value visibly invalid (NaN), which the
 * cache's decode turns into a miss.
 */
export async function loadRows(
  db: pg.Pool | pg.PoolClient,
  sessionIds?: readonly string[],
): Promise<Map<string, IdentityRows[]>> {
  const result = await db.query<StoredRow>(
    sessionIds === undefined
      ? { text: `SELECT ${COLUMNS} FROM projection_cache_rows`, rowMode: 'array' }
      : {
          text: `SELECT ${COLUMNS} FROM projection_cache_rows WHERE session_id = ANY($1::text[])`,
          values: [sessionIds],
          rowMode: 'array',
        },
  );
  const bySession = new Map<string, IdentityRows[]>();
  for (const [sessionId, incarnation, inheritedCutText, key, stateVersion, cut, state] of result.rows) {
    const inheritedCut = Number(inheritedCutText);
    let identities = bySession.get(sessionId);
    if (identities === undefined) bySession.set(sessionId, (identities = []));
    let identity = identities.find((i) => i.incarnation === incarnation && i.inheritedCut === inheritedCut);
    if (identity === undefined) identities.push((identity = { incarnation, inheritedCut, rows: [] }));
    (identity.rows as CacheRow[]).push([key, stateVersion, Number(cut), state]);
  }
  return bySession;
}

// Session ids are serialized per id with a transaction-scoped advisory lock (two-key form, apart
// from the schema lock's one-key space), so two hosts writing different identities of one id can
// never both keep theirs.
const LOCK_SESSION = 'SELECT pg_advisory_xact_lock(1937011300, hashtext($1))';
const DROP_OTHER_IDENTITIES =
  'DELETE FROM projection_cache_rows WHERE session_id = $1 AND NOT (incarnation = $2 AND inherited_cut = $3)';
const FORGET = 'DELETE FROM projection_cache_rows WHERE session_id = $1';
// A row never moves back to an older cut of the same stateVersion (a slower writer elsewhere).
const UPSERT = `
INSERT INTO projection_cache_rows AS stored (${COLUMNS})
SELECT $1, $2, $3, r.key, r.state_version, r.cut, r.state
FROM unnest($4::text[], $5::integer[], $6::bigint[], $7::text[]) AS r(key, state_version, cut, state)
ON CONFLICT (session_id, incarnation, inherited_cut, key) DO UPDATE SET
  state_version = EXCLUDED.state_version, cut = EXCLUDED.cut, state = EXCLUDED.state
WHERE EXCLUDED.cut >= stored.cut OR EXCLUDED.state_version <> stored.state_version`;
const NOTIFY = 'SELECT pg_notify($1, $2)';

/** What the write-behind writes, in order: cache row changes and list index changes. */
export type StoreChange = RowChange | ListChange;

/**
 * Writes changes in order in one transaction, each session's advisory lock taken first, in id
 * order (two writers locking overlapping sets in one order cannot deadlock): a bulk writer (a list
 * rebuild) commits once per group instead of once per session. Rolls back and throws if any fails.
 * A cache row change announces its session id on the channel at commit (NOTIFY is transactional:
 * listeners hear of it only once the rows are visible); a list change announces nothing, since
 * other hosts read list rows from the database and hold no copy to reload.
 */
export async function writeChanges(client: pg.PoolClient, changes: readonly StoreChange[]): Promise<void> {
  await client.query('BEGIN');
  try {
    const ids = [...new Set(changes.flatMap((change) => change.sessionId ?? []))].sort();
    for (const id of ids) await client.query(LOCK_SESSION, [id]);
    for (const change of changes) await applyChange(client, change);
    await client.query('COMMIT');
  } catch (error) {
    // A ROLLBACK that fails means the connection is gone, and the transaction died with it.
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

async function applyChange(client: pg.PoolClient, change: StoreChange): Promise<void> {
  if (change.kind !== 'put' && change.kind !== 'forget') {
    await writeListChange(client, change);
  } else if (change.kind === 'forget') {
    // As in SQLite: the list row stays, its hints become unknown (a failed fold, not a delete).
    await client.query(FORGET, [change.sessionId]);
    await forgetListHints(client, change.sessionId);
  } else {
    const { sessionId, incarnation, inheritedCut, rows } = change;
    await client.query(DROP_OTHER_IDENTITIES, [sessionId, incarnation, inheritedCut]);
    if (rows.length > 0) {
      await client.query(UPSERT, [
        sessionId,
        incarnation,
        inheritedCut,
        rows.map((row) => row[0]),
        rows.map((row) => row[1]),
        rows.map((row) => row[2]),
        rows.map((row) => row[3]),
      ]);
    }
    // In the rows' transaction: a list row is never ahead of its cache rows.
    if (change.listRow !== undefined) await upsertListRow(client, change.listRow);
  }
  if (change.kind === 'put' || change.kind === 'forget')
    await client.query(NOTIFY, [CACHE_CHANNEL, change.sessionId]);
}
