/**
 * `PRAGMA application_id` of a Strand session database: the ASCII bytes "STRN" (0x5354524E =
 * 1398034510). A database carrying any other non-zero id belongs to another program and is refused.
 */
export const SQLITE_APPLICATION_ID = 0x5354524e;

/**
 * `PRAGMA user_version`: the schema version this build writes and the highest it reads. A newer
 * database is refused (PERSISTENCE_FORMAT_UNSUPPORTED) rather than half-understood.
 */
export const SQLITE_SCHEMA_VERSION = 1;

/**
 * Schema version 1. `sessions.key` is a compact internal key so event and attachment rows do not
 * repeat the (up to 128-character) session id. `events` is WITHOUT ROWID so the (session, seq)
 * primary key *is* the storage order: a suffix read is one range scan. `revision` is a counter
 * bumped by every append/repair; the public token is `${incarnation}:${revision}`. `stored_bytes`
 * is the payload size of the header and event rows (not attachments, not page overhead), so it
 * changes exactly when the revision does.
 */
export const SCHEMA_V1 = `
CREATE TABLE sessions (
  key INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  incarnation TEXT NOT NULL,
  header TEXT NOT NULL,
  inherited_event_count INTEGER NOT NULL,
  next_seq INTEGER NOT NULL,
  revision INTEGER NOT NULL,
  stored_bytes INTEGER NOT NULL
) STRICT;

CREATE TABLE events (
  session_key INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  type TEXT NOT NULL,
  time INTEGER NOT NULL,
  data TEXT NOT NULL,
  PRIMARY KEY (session_key, seq)
) STRICT, WITHOUT ROWID;

CREATE TABLE attachments (
  session_key INTEGER NOT NULL,
  ref TEXT NOT NULL,
  media_type TEXT NOT NULL,
  bytes BLOB NOT NULL,
  PRIMARY KEY (session_key, ref)
) STRICT;
`;
