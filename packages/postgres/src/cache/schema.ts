import type pg from 'pg';
import { ensurePoolSchema } from '../schema-versions.js';
import { PROJECT_NAME_DDL } from './project-name-schema.js';
import { prepareReconcileSchema } from './reconcile-schema.js';
import { USAGE_DDL } from './usage-schema.js';

/** The component name and version of the cache's tables in `strand_schema`. */
export const CACHE_COMPONENT = 'projection-cache';
/**
 * 2 added `list_rows` (the list index). An older build would write cache rows without list rows
 * and leave the index behind the cache, so it refuses a version-2 database rather than do that.
 * 3 added `usage_hours` (usage-schema.ts), for the same reason; 4 `list_rows.project_name`
 * (project-name-schema.ts), which an older build would leave unset on the rows it writes.
 */
export const CACHE_SCHEMA_VERSION = 4;

/** The NOTIFY channel a committed row write announces its session id on. */
export const CACHE_CHANNEL = 'strand_cache_rows';

/**
 * The same rows as the SQLite cache: one per (session id, incarnation, inherited cut, key), whose
 * first three columns are the row's identity and `cut` how far it has folded. `state` is the
 * JSON text exactly as written (text, not jsonb: the cache decodes it itself, and a damaged row
 * must stay a miss rather than be refused or normalized by the server).
 */
const ROWS_DDL = `
CREATE TABLE projection_cache_rows (
  session_id    text    NOT NULL,
  incarnation   text    NOT NULL,
  inherited_cut bigint  NOT NULL,
  key           text    NOT NULL,
  state_version integer NOT NULL,
  cut           bigint  NOT NULL,
  state         text    NOT NULL,
  PRIMARY KEY (session_id, incarnation, inherited_cut, key)
);
`;

/**
 * The list index, as in the SQLite cache file: one row per session (header JSON, hints JSON at
 * `as_of_seq`) and the columns `session.list` orders and filters by, each indexed behind the
 * order's key so a filtered page is one index range scan. The text columns compared by order or
 * prefix are `COLLATE "C"` (code point order, as SQLite's BINARY): the server's default collation
 * would order ids and match title prefixes differently from the SQLite engine, and a cursor
 * compares ids.
 */
const LIST_DDL = `
CREATE TABLE list_rows (
  session_id  text COLLATE "C" NOT NULL PRIMARY KEY,
  incarnation text             NOT NULL,
  header      text             NOT NULL,
  hints       text,
  as_of_seq   bigint,
  activity_at double precision NOT NULL,
  cwd         text,
  harness     text             NOT NULL,
  parent      text,
  title       text COLLATE "C"
);
CREATE INDEX list_rows_by_activity ON list_rows (activity_at DESC, session_id);
CREATE INDEX list_rows_by_cwd ON list_rows (cwd, activity_at DESC, session_id);
CREATE INDEX list_rows_by_harness ON list_rows (harness, activity_at DESC, session_id);
CREATE INDEX list_rows_by_parent ON list_rows (parent, activity_at DESC, session_id);
CREATE INDEX list_rows_by_title ON list_rows (title);
`;

/**
 * Version 1 → 2 adds the empty list index; the host's reconcile at open gives every stored
 * session its row (header facts at once, hints folded in the background). 2 → 3 adds the usage
 * hours, every session's unknown until its next fold writes them. 3 → 4 adds the project name,
 * filled from each row's `cwd`.
 */
const MIGRATIONS = { 2: LIST_DDL, 3: USAGE_DDL, 4: PROJECT_NAME_DDL };

/**
 * Creates the cache's tables once per database, migrates an older one, refuses a newer one
 * (`SchemaVersionError`), then adds the reconcile marker if absent (reconcile-schema.ts).
 */
export async function prepareCacheSchema(pool: pg.Pool): Promise<void> {
  await ensurePoolSchema(
    pool,
    CACHE_COMPONENT,
    CACHE_SCHEMA_VERSION,
    ROWS_DDL + LIST_DDL + USAGE_DDL + PROJECT_NAME_DDL,
    MIGRATIONS,
  );
  await prepareReconcileSchema(pool);
}
