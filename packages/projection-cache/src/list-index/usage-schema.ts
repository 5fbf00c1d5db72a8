import type Database from 'better-sqlite3';

/**
 * Schema step 3: per-session usage beside the list index. `list_rows.usage_as_of` is the cut the
 * session's hours are at (NULL: not known yet, the host folds or observes it); `usage_hours` holds
 * the `usage` unit's own tokens per UTC hour and model, written in the same transaction as the
 * list row, so `usage.summary` over the corpus is one query with no log read. Hours are UTC: a
 * day in any zone is a sum of whole hours, done by the host.
 */
const USAGE_DDL = `
CREATE TABLE IF NOT EXISTS usage_hours (
  session_id     TEXT    NOT NULL,
  hour           INTEGER NOT NULL,
  provider       TEXT,
  model          TEXT,
  long_context   INTEGER NOT NULL,
  input          INTEGER NOT NULL,
  output         INTEGER NOT NULL,
  cache_creation INTEGER NOT NULL,
  cache_read     INTEGER NOT NULL,
  reasoning      INTEGER NOT NULL,
  reported_usd   REAL
);
CREATE INDEX IF NOT EXISTS usage_hours_by_session ON usage_hours (session_id, hour);
`;

/** Adds the usage column and table to a version-2 database (idempotent). */
export function prepareUsageSchema(db: Database.Database): void {
  const columns = db.pragma('table_info(list_rows)') as readonly { readonly name: string }[];
  if (!columns.some((column) => column.name === 'usage_as_of'))
    db.exec('ALTER TABLE list_rows ADD COLUMN usage_as_of INTEGER');
  db.exec(USAGE_DDL);
}
