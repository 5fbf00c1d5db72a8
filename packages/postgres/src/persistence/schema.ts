/** The `strand_schema` component name of session persistence. */
export const PERSISTENCE_COMPONENT = 'persistence';

/** The schema version this build writes and the highest it reads; a newer database is refused. */
export const PERSISTENCE_SCHEMA_VERSION = 2;

/**
 * Schema version 1.
 *
 * - `strand_sessions`: one row per stored session. `next_seq` is the stored log length and the
 *   guard every append checks; `revision` is a counter bumped by every write (the public token is
 *   `${incarnation}:${revision}`); `stored_bytes` is the payload size of the header and the batch
 *   rows before TOAST compression, so it changes exactly when the revision does.
 * - `strand_event_batches`: one row per durable write (an append, a group of coalesced appends, a
 *   seeded prefix, repair closers), its events as JSON lines exactly as the JSONL backend writes
 *   them. A 100k-event session is a few thousand rows, and TOAST compresses the large values;
 *   `(session_id, first_seq)` is the storage key, so a suffix read is one short index range.
 * - `strand_attachments`: content-addressed blobs per session.
 *
 * Batch and attachment rows cascade with their session row: `delete` is one statement.
 * `lines` uses lz4 where the server supports it (decompression is several times faster than
 * pglz's); the `DO` block keeps the schema valid on servers built without lz4.
 */
export const PERSISTENCE_DDL_V1 = `
CREATE TABLE strand_sessions (
  id text PRIMARY KEY,
  incarnation text NOT NULL,
  header text NOT NULL,
  inherited_event_count integer NOT NULL,
  next_seq integer NOT NULL,
  revision bigint NOT NULL,
  stored_bytes bigint NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE strand_event_batches (
  session_id text NOT NULL REFERENCES strand_sessions (id) ON DELETE CASCADE,
  first_seq integer NOT NULL,
  count integer NOT NULL CHECK (count > 0),
  lines text NOT NULL,
  PRIMARY KEY (session_id, first_seq)
);

CREATE TABLE strand_attachments (
  session_id text NOT NULL REFERENCES strand_sessions (id) ON DELETE CASCADE,
  ref text NOT NULL,
  media_type text NOT NULL,
  bytes bytea NOT NULL,
  PRIMARY KEY (session_id, ref)
);

DO $$
BEGIN
  ALTER TABLE strand_event_batches ALTER COLUMN lines SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported OR syntax_error OR invalid_parameter_value THEN
  -- No lz4 in this server build (or a server before 14): the default compression is used.
  NULL;
END
$$;
`;

/**
 * Schema version 2 adds the change marker (`SessionPersistence.changeMarker`): one row of
 * `strand_session_changes`, a random id of this database and a counter that triggers on
 * `strand_sessions` bump with every inserted row (a session reaching storage), deleted row and
 * change of incarnation, in the writing transaction — so the writes of every host and tool on the
 * database move it, a reader sees the counter and the sessions of one committed state, and an
 * append (an update of `next_seq` and `revision`) does not move it. A counter row, not a sequence:
 * `nextval` is not transactional, so a reader could see a value whose session it cannot see yet,
 * record it, and never walk again. The row lock makes creates and deletes of different hosts
 * commit one at a time (appends never take it).
 */
export const PERSISTENCE_MIGRATION_V2 = `
CREATE TABLE strand_session_changes (
  id smallint PRIMARY KEY CHECK (id = 1),
  database text NOT NULL,
  changes bigint NOT NULL
);
INSERT INTO strand_session_changes (id, database, changes) VALUES (1, md5(random()::text || clock_timestamp()::text), 0);

CREATE FUNCTION strand_count_session_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE strand_session_changes SET changes = changes + 1 WHERE id = 1;
  RETURN NULL;
END
$$;

CREATE TRIGGER strand_sessions_stored_or_deleted AFTER INSERT OR DELETE ON strand_sessions
  FOR EACH ROW EXECUTE FUNCTION strand_count_session_change();
CREATE TRIGGER strand_sessions_reincarnated AFTER UPDATE OF incarnation ON strand_sessions
  FOR EACH ROW WHEN (OLD.incarnation IS DISTINCT FROM NEW.incarnation)
  EXECUTE FUNCTION strand_count_session_change();
`;

/** A new database: version 1's tables and version 2's marker, in one step. */
export const PERSISTENCE_DDL = `${PERSISTENCE_DDL_V1}\n${PERSISTENCE_MIGRATION_V2}`;

/** The steps from an older database, keyed by the version they reach. */
export const PERSISTENCE_MIGRATIONS = { 2: PERSISTENCE_MIGRATION_V2 } as const;
