import type pg from 'pg';
import { ensureSchema } from '../schema-versions.js';

/** The component name and version of the cache's tables in `strand_schema`. */
export const CACHE_COMPONENT = 'projection-cache';
export const CACHE_SCHEMA_VERSION = 1;

/** The NOTIFY channel a committed row write announces its session id on. */
export const CACHE_CHANNEL = 'strand_cache_rows';

/**
 * The same rows as the SQLite cache: one per (session id, incarnation, inherited cut, key), whose
 * first three columns are the row's identity and `cut` how far it has folded. `state` is the
 * JSON text exactly as written (text, not jsonb: the cache decodes it itself, and a damaged row
 * must stay a miss rather than be refused or normalized by the server).
 */
const DDL = `
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

/** Creates the cache's table once per database; refuses a newer one (`SchemaVersionError`). */
export async function prepareCacheSchema(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await ensureSchema(client, CACHE_COMPONENT, CACHE_SCHEMA_VERSION, DDL);
  } finally {
    client.release();
  }
}
