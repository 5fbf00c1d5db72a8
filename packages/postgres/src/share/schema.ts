import type pg from 'pg';
import { ensurePoolSchema } from '../schema-versions.js';

/**
 * The share grants' own `strand_schema` component: its table is created (or migrated) on its own,
 * so another component's version never has to move for it.
 */
export const SHARE_GRANTS_COMPONENT = 'share-grants';
/** 1: `share_grants`. */
export const SHARE_GRANTS_SCHEMA_VERSION = 1;

/** The NOTIFY channel a revoke announces its grant id on (every host closes that grant's connections). */
export const SHARE_REVOKED_CHANNEL = 'strand_share_revoked';

/**
 * One row per grant, as the files engine's entries: only the token's hash, times in epoch
 * milliseconds of the host that made or revoked it (a grant's expiry is a fact of the grant, not of
 * the database clock). `token_hash` is unique: a token names at most one grant.
 */
const GRANTS_DDL = `
CREATE TABLE share_grants (
  grant_id    text    PRIMARY KEY,
  token_hash  text    NOT NULL UNIQUE,
  session_id  text    NOT NULL,
  descendants boolean NOT NULL,
  expires_at  bigint,
  label       text,
  created_by  text    NOT NULL,
  created_at  bigint  NOT NULL,
  revoked_at  bigint
);
CREATE INDEX share_grants_by_created ON share_grants (created_at, grant_id);
`;

/** Creates the grants table once per database, refuses a newer one (`SchemaVersionError`). */
export function prepareShareGrantsSchema(pool: pg.Pool): Promise<void> {
  return ensurePoolSchema(pool, SHARE_GRANTS_COMPONENT, SHARE_GRANTS_SCHEMA_VERSION, GRANTS_DDL);
}
