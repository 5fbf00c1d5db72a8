import type pg from 'pg';

/**
 * What the host's reconcile keeps beside the list index (packages/host/README.md, "Reconcile
 * rule"), as in the SQLite engine (projection-cache list-index/reconcile-schema.ts), added
 * idempotently to any version-4 database so the schema version stays 4 and an older build still
 * opens it:
 *
 * - `list_meta` holds `reconciled_marker`, the persistence change marker the last completed
 *   reconcile walked against. Any statement deleting list rows drops it (`list_rows_drop_marker`):
 *   an older build emptying the index or dropping rows cannot leave a marker that would skip the
 *   walk over an index it changed. The trigger is per statement (a `clear` of a million rows runs
 *   it once) and looks at the deleted rows, so a delete of nothing keeps the marker. A `TRUNCATE
 *   list_rows` fires no delete trigger, so `list_rows_truncate_drops_marker` covers it.
 * - `list_rows_unfolded` indexes the rows whose hints or usage hours are unknown, so folding them
 *   (`unfoldedIds`) reads keyset pages of those rows alone.
 */
const RECONCILE_DDL = `
CREATE TABLE IF NOT EXISTS list_meta (
  key   text NOT NULL PRIMARY KEY,
  value text NOT NULL
);
CREATE OR REPLACE FUNCTION list_rows_drop_marker() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM gone) THEN
    DELETE FROM list_meta WHERE key = 'reconciled_marker';
  END IF;
  RETURN NULL;
END $$;
DROP TRIGGER IF EXISTS list_rows_drop_marker ON list_rows;
CREATE TRIGGER list_rows_drop_marker AFTER DELETE ON list_rows
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION list_rows_drop_marker();
CREATE OR REPLACE FUNCTION list_rows_truncate_drops_marker() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM list_meta WHERE key = 'reconciled_marker';
  RETURN NULL;
END $$;
DROP TRIGGER IF EXISTS list_rows_truncate_drops_marker ON list_rows;
CREATE TRIGGER list_rows_truncate_drops_marker AFTER TRUNCATE ON list_rows
  FOR EACH STATEMENT EXECUTE FUNCTION list_rows_truncate_drops_marker();
CREATE INDEX IF NOT EXISTS list_rows_unfolded ON list_rows (session_id)
  WHERE as_of_seq IS NULL OR usage_as_of IS NULL;
`;

/** Whether the step ran already (all its objects commit together). */
const PRESENT = `
SELECT to_regclass('list_meta') IS NOT NULL AND to_regclass('list_rows_unfolded') IS NOT NULL
   AND (SELECT count(*) FROM pg_trigger WHERE tgrelid = 'list_rows'::regclass
          AND tgname IN ('list_rows_drop_marker', 'list_rows_truncate_drops_marker')) = 2
   AS present`;

async function present(db: pg.Pool | pg.PoolClient): Promise<boolean> {
  return (await db.query<{ present: boolean }>(PRESENT)).rows[0]?.present === true;
}

/**
 * Adds the reconcile marker and the unfolded rows' index once per database (after the versioned
 * steps). The catalog is read first, so an open of a prepared database takes no lock on
 * `list_rows` (creating a trigger or an index would block the other hosts' writes); otherwise the
 * step runs in one transaction under the schema's advisory lock, and hosts starting together run
 * it once: the others find it present under the lock.
 */
export async function prepareReconcileSchema(pool: pg.Pool): Promise<void> {
  if (await present(pool)) return;
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    try {
      await client.query("SELECT pg_advisory_xact_lock(hashtext('strand-schema'))");
      if (!(await present(client))) await client.query(RECONCILE_DDL);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  } finally {
    client.release();
  }
}
