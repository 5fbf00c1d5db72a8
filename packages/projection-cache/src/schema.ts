import type Database from 'better-sqlite3';
import { ProjectionCacheError } from './errors.js';

/** Bumped on any incompatible change of the table below; a newer database is refused, never misread. */
export const CACHE_SCHEMA_VERSION = 1;

/**
 * One row per (session id, incarnation, inherited cut, key). The first three are the row's
 * identity (the exact inherited cut is part of it: the subagent listing contract, packages/subagent/README.md); `cut` is how far the row has folded.
 * WITHOUT ROWID keeps a session's rows together on the primary key, so a read is one range scan.
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
`;

export function prepareSchema(db: Database.Database): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > CACHE_SCHEMA_VERSION) {
    throw new ProjectionCacheError(
      'PROJECTION_CACHE_SCHEMA_UNSUPPORTED',
      `projection cache schema ${version} is newer than this build reads (${CACHE_SCHEMA_VERSION})`,
    );
  }
  db.exec(DDL);
  if (version < CACHE_SCHEMA_VERSION) db.pragma(`user_version = ${CACHE_SCHEMA_VERSION}`);
}
