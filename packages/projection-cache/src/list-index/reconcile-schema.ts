import type Database from 'better-sqlite3';

/**
 * What the host's reconcile keeps beside the list index (packages/host/README.md, "Reconcile
 * rule"), added idempotently to any version-4 file, so the schema version stays 4:
 *
 * - `list_meta` holds `reconciled_marker`, the persistence change marker the last completed
 *   reconcile walked against. Deleting any list row drops it (`list_rows_drop_marker`): a build
 *   from before it emptying the index (`strand doctor --rebuild-list`) or dropping rows cannot
 *   leave a marker that would skip the walk over an index it changed. Deletes by this build
 *   (a session deleted, which moves the persistence marker anyway) lose nothing but one skip.
 * - `list_rows_unfolded` indexes the rows whose hints or usage hours are unknown, so folding them
 *   (`unfoldedIds`) reads keyset pages of those rows alone, never the whole index.
 */
const RECONCILE_DDL = `
CREATE TABLE IF NOT EXISTS list_meta (
  key   TEXT NOT NULL PRIMARY KEY,
  value TEXT NOT NULL
);
CREATE TRIGGER IF NOT EXISTS list_rows_drop_marker AFTER DELETE ON list_rows
  BEGIN DELETE FROM list_meta WHERE key = 'reconciled_marker'; END;
CREATE INDEX IF NOT EXISTS list_rows_unfolded ON list_rows (session_id)
  WHERE as_of_seq IS NULL OR usage_as_of IS NULL;
`;

/** Adds the reconcile marker and the unfolded rows' index (idempotent; after the usage step). */
export function prepareReconcileSchema(db: Database.Database): void {
  db.exec(RECONCILE_DDL);
}
