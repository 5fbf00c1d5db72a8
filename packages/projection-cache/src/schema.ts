import type Database from 'better-sqlite3';
import { ProjectionCacheError } from './errors.js';
import { prepareProjectNameSchema } from './list-index/project-name-schema.js';
import { prepareReconcileSchema } from './list-index/reconcile-schema.js';
import { prepareUsageSchema } from './list-index/usage-schema.js';

/**
 * Bumped on any incompatible change of the tables below; a newer database is refused, never
 * misread. 2 added `list_rows`: an older build writing cache rows without list rows would leave
 * the list index behind the cache, so it refuses a version-2 file rather than do that. 3 added
 * `usage_hours` (list-index/usage-schema.ts), for the same reason; 4 `list_rows.project_name`
 * (list-index/project-name-schema.ts), which an older build would leave unset on the rows it writes.
 */
export const CACHE_SCHEMA_VERSION = 4;

/**
 * One row per (session id, incarnation, inherited cut, key). The first three are the row's
 * identity (the exact inherited cut is part of it: the subagent listing contract, packages/subagent/README.md); `cut` is how far the row has folded.
 * WITHOUT ROWID keeps a session's rows together on the primary key, so a read is one range scan.
 *
 * `list_rows` is the list index: one row per session (header JSON, hints JSON at `as_of_seq`) with
 * the columns `session.list` orders and filters by, each indexed behind the order's key so a
 * filtered page is one index range scan.
 */
const DDL = `
CREATE TABLE IF NOT EXISTS projection_rows (
  session_id    TEXT    NOT NULL,
  incarnation   TEXT    NOT NULL,
  inherited_cut INTEGER NOT NULL,
  key           TEXT    NOT NULL,
  state_version INTEGER NOT NULL,
  cut           INTEGER NOT NULL,
  state         TEXT    NOT NULL,
  PRIMARY KEY (session_id, incarnation, inherited_cut, key)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS list_rows (
  session_id  TEXT    NOT NULL PRIMARY KEY,
  incarnation TEXT    NOT NULL,
  header      TEXT    NOT NULL,
  hints       TEXT,
  as_of_seq   INTEGER,
  activity_at REAL    NOT NULL,
  cwd         TEXT,
  harness     TEXT    NOT NULL,
  parent      TEXT,
  title       TEXT
);
CREATE INDEX IF NOT EXISTS list_rows_by_activity ON list_rows (activity_at DESC, session_id);
CREATE INDEX IF NOT EXISTS list_rows_by_cwd ON list_rows (cwd, activity_at DESC, session_id);
CREATE INDEX IF NOT EXISTS list_rows_by_harness ON list_rows (harness, activity_at DESC, session_id);
CREATE INDEX IF NOT EXISTS list_rows_by_parent ON list_rows (parent, activity_at DESC, session_id);
CREATE INDEX IF NOT EXISTS list_rows_by_title ON list_rows (title);
`;

/**
 * Checks the version and creates or upgrades the tables, in one IMMEDIATE transaction: processes
 * opening one file at once (the readers `strand list`, `show` and `search` beside an import each
 * open the cache) are serialized, so each sees the file untouched or fully prepared — never two
 * that both found a column missing and both added it (`duplicate column name`).
 */
export function prepareSchema(db: Database.Database): void {
  db.transaction(() => prepareSchemaIn(db)).immediate();
}

function prepareSchemaIn(db: Database.Database): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > CACHE_SCHEMA_VERSION) {
    throw new ProjectionCacheError(
      'PROJECTION_CACHE_SCHEMA_UNSUPPORTED',
      `projection cache schema ${version} is newer than this build reads (${CACHE_SCHEMA_VERSION})`,
    );
  }
  db.exec(DDL);
  prepareUsageSchema(db);
  prepareProjectNameSchema(db);
  prepareReconcileSchema(db);
  if (version < CACHE_SCHEMA_VERSION) db.pragma(`user_version = ${CACHE_SCHEMA_VERSION}`);
}
