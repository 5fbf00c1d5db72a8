import type pg from 'pg';
import type { CacheRow, ListIndexRow } from '@strand/projection-cache';
import { forgetListHints, upsertListRows, writeListChange, type ListChange } from './list-sql.js';
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
// One statement locks a whole group's ids, in the order of the array (`unnest` keeps it).
const LOCK_SESSIONS =
  'SELECT count(pg_advisory_xact_lock(1937011300, hashtext(id))) FROM unnest($1::text[]) AS id';
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
// One notice per session id, all in one statement (each is still its own notice to listeners).
const NOTIFY = 'SELECT count(pg_notify($1, id)) FROM unnest($2::text[]) AS id';

/** What the write-behind writes, in order: cache row changes and list index changes. */
export type StoreChange = RowChange | ListChange;

/**
 * Writes changes in order in one transaction, each session's advisory lock taken first, in id
 * order (two writers locking overlapping sets in one order cannot deadlock): a bulk writer (a list
 * rebuild) commits once per group instead of once per session. Rolls back and throws if any fails.
 * A cache row change announces its session id on the channel at commit (NOTIFY is transactional:
 * listeners hear of it only once the rows are visible); a list change announces nothing, since
 * other hosts read list rows from the database and hold no copy to reload.
 *
 * The list rows of the group (its list upserts and its puts' rows) are written in batches, a few
 * statements per batch instead of about six per row (issue 41): the changes are cut into runs in
 * which no session id repeats and no `list-clear` stands, and inside a run the order between
 * different sessions does not matter, so each run's list rows go in one `upsertListRows` after its
 * other statements, and its notices in one statement. Changes of one session keep their order.
 */
export async function writeChanges(client: pg.PoolClient, changes: readonly StoreChange[]): Promise<void> {
  await client.query('BEGIN');
  try {
    const ids = [...new Set(changes.flatMap((change) => change.sessionId ?? []))].sort();
    if (ids.length > 0) await client.query(LOCK_SESSIONS, [ids]);
    for (const run of runsOf(changes)) await applyRun(client, run);
    await client.query('COMMIT');
  } catch (error) {
    // A ROLLBACK that fails means the connection is gone, and the transaction died with it.
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/** Consecutive changes cut where a session id would repeat, and around each `list-clear`. */
export function runsOf(changes: readonly StoreChange[]): StoreChange[][] {
  const runs: StoreChange[][] = [];
  let run: StoreChange[] = [];
  let seen = new Set<string>();
  const cut = () => {
    if (run.length > 0) runs.push(run);
    run = [];
    seen = new Set();
  };
  for (const change of changes) {
    if (change.sessionId === undefined) {
      cut();
      runs.push([change]);
      continue;
    }
    if (seen.has(change.sessionId)) cut();
    seen.add(change.sessionId);
    run.push(change);
  }
  cut();
  return runs;
}

/** One run (no session twice): each change's own statements, then its list rows and notices batched. */
async function applyRun(client: pg.PoolClient, run: readonly StoreChange[]): Promise<void> {
  const listRows: ListIndexRow[] = [];
  const notices: string[] = [];
  for (const change of run) {
    if (change.kind === 'list-upsert') {
      listRows.push(change.row);
    } else if (change.kind !== 'put' && change.kind !== 'forget') {
      await writeListChange(client, change);
    } else if (change.kind === 'forget') {
      // As in SQLite: the list row stays, its hints become unknown (a failed fold, not a delete).
      await client.query(FORGET, [change.sessionId]);
      await forgetListHints(client, change.sessionId);
      notices.push(change.sessionId);
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
      if (change.listRow !== undefined) listRows.push(change.listRow);
      notices.push(sessionId);
    }
  }
  await upsertListRows(client, listRows);
  if (notices.length > 0) await client.query(NOTIFY, [CACHE_CHANNEL, notices]);
}
