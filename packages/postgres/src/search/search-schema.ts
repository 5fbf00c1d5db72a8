import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { IndexIdentity } from '@strand/search/kit';
import { ensureSchema } from '../schema-versions.js';
import type { SearchDatabase } from './search-database.js';
import { BUCKET_SQL } from './search-buckets.js';
import { TEXT_FUNCTIONS_DDL } from './ts-functions.js';

/** The `search` component's row in `strand_schema`; bumped on any incompatible change below. */
export const SEARCH_SCHEMA_VERSION = 8;

/** The last schema step that starts the index over (a new generation, no rows); later ones keep it. */
export const LAST_RESET_SCHEMA = 7;

/*
 * - `search_index`: one row, the index's random `index_id` and its `generation` (bumped by every
 *   rebuild), named by cursors.
 * - `search_sessions`: bookkeeping per session, the same columns and meaning as the SQLite index
 *   (README "What it indexes"). `sid` is an identity: never reused, and ascending in the order
 *   sessions were first indexed, which is what rank windows walk down.
 * - `search_events`: one row per indexed event, keyed (sid, seq) so a re-delivered batch is an
 *   upsert, never a duplicate. `text` is the stored text snippets are cut from; `tsv` its words
 *   (ts-text.ts) under the 'simple' configuration and, from schema 7, their adjacent pairs
 *   (`strand_search_tsv`, ts-functions.ts), GIN-indexed by session bucket (search-buckets.ts).
 * - `search_labels` (schema 2): one row per event that set the session's label (a
 *   `LabelExtractor`), keyed (sid, seq) like `search_events`, `''` for a cleared label; the
 *   session's label is its row with the largest seq.
 * - `search_sessions.cwd`/`harness` (schema 3): the session's facets (`FacetExtractor`, from the
 *   header of the incarnation indexed), which a filtered search narrows to inside its query;
 *   `search_snapshots.filter` the filter a snapshot ranks under (`filterKey`; `null`: none).
 * - `search_sessions.own_from` (schema 4): the session's first own seq (a fork's inherited prefix
 *   length, else 0); its events below it have no text rows and a label set there matches nothing.
 * - `search_sessions.parent_session`/`origin`/`forked_from` (schema 5): where the session came from
 *   (the same extractor), read back with each result; never filtered by.
 * - `search_sessions.project_name` (schema 6): the `cwd` facet's last folder name (`projectNameOf`
 *   of @strand/session), which `session.search`'s `projectName` narrows to inside its query.
 * - `search_snapshots` / `search_snapshot_chunks`: frozen result orders behind cursors, shared by
 *   every host on the database (a cursor from host A continues on host B).
 */
const LABELS_DDL = `
CREATE TABLE search_labels (
  sid  bigint   NOT NULL,
  seq  bigint   NOT NULL,
  text text     NOT NULL,
  tsv  tsvector NOT NULL,
  PRIMARY KEY (sid, seq)
);
CREATE INDEX search_labels_tsv ON search_labels USING gin (tsv);`;

const FACETS_INDEX_DDL = `
CREATE INDEX IF NOT EXISTS search_sessions_cwd ON search_sessions (cwd);
CREATE INDEX IF NOT EXISTS search_sessions_harness ON search_sessions (harness);`;

const PROJECT_NAME_INDEX_DDL = `
CREATE INDEX IF NOT EXISTS search_sessions_project_name ON search_sessions (project_name);`;

// Schema 7: the text index is over (bucket, tsv) — `search-buckets.ts` — which needs btree_gin
// (a contrib extension every PostgreSQL ships; trusted since 13, so the database's owner may
// create it). It serves a query on `tsv` alone as the plain text index did.
const BUCKET_INDEX_DDL = `
CREATE EXTENSION IF NOT EXISTS btree_gin;
CREATE INDEX IF NOT EXISTS search_events_bucket_tsv ON search_events USING gin (${BUCKET_SQL}, tsv);`;

// Schema 8: a larger ANALYZE sample for `search_events.sid`. A session's best event hits (shown
// under a result found by its label) are read by primary key when the planner knows a session has
// few rows. ANALYZE's default sample (30,000 rows) estimated ~70,000 distinct sids among 5,000,000
// rows holding 1,000,000, so ~71 rows a session: the planner then read the word's index entries
// for the whole bucket beside the key (~1 ms a session against ~0.05 ms). With 300,000 rows
// sampled the estimate was 491,785 (docs/scale.md, "Search on PostgreSQL").
const SID_STATISTICS_DDL = `ALTER TABLE search_events ALTER COLUMN sid SET STATISTICS 1000;`;

const DDL = `${TEXT_FUNCTIONS_DDL}
CREATE TABLE search_index (
  singleton  boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  index_id   text    NOT NULL,
  generation bigint  NOT NULL
);
CREATE TABLE search_sessions (
  sid         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  session_id  text   NOT NULL UNIQUE,
  incarnation text,
  revision    text,
  cut         bigint NOT NULL,
  durable_cut bigint NOT NULL,
  own_from    bigint NOT NULL,
  cwd         text,
  project_name text,
  harness     text,
  parent_session text,
  origin      text,
  forked_from text
);
${FACETS_INDEX_DDL}
${PROJECT_NAME_INDEX_DDL}
CREATE TABLE search_events (
  sid  bigint   NOT NULL,
  seq  bigint   NOT NULL,
  text text     NOT NULL,
  tsv  tsvector NOT NULL,
  PRIMARY KEY (sid, seq)
);
${SID_STATISTICS_DDL}
${BUCKET_INDEX_DDL}
${LABELS_DDL}
CREATE TABLE search_snapshots (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  generation bigint  NOT NULL,
  expression text    NOT NULL,
  filter     text,
  upper_sid  bigint,
  size       integer NOT NULL,
  touched_at bigint  NOT NULL
);
CREATE INDEX search_snapshots_touched ON search_snapshots (touched_at, id);
CREATE TABLE search_snapshot_chunks (
  snapshot_id    bigint  NOT NULL REFERENCES search_snapshots (id) ON DELETE CASCADE,
  first_position integer NOT NULL,
  count          integer NOT NULL,
  entries        text    NOT NULL,
  PRIMARY KEY (snapshot_id, first_position)
);
`;

/**
 * Schema 1 → 2: the labels table. A schema-1 index has no labels for what it indexed: the index is
 * derived, so it starts over — a new generation (every cursor is stale), no rows — and the next
 * sync re-reads the logs, as the SQLite index does with an older file.
 */
const MIGRATIONS = {
  2: `${LABELS_DDL}
UPDATE search_index SET generation = generation + 1;
DELETE FROM search_snapshots;
DELETE FROM search_sessions;
DELETE FROM search_events;`,
  // Schema 2 → 3: the facets. Backfilling them needs every session's header, which the index does
  // not have: it starts over as for schema 2 (new generation, no rows) and the next sync files
  // every session under its facets while re-reading it.
  3: `ALTER TABLE search_sessions ADD COLUMN IF NOT EXISTS cwd text, ADD COLUMN IF NOT EXISTS harness text;
ALTER TABLE search_snapshots ADD COLUMN IF NOT EXISTS filter text;
${FACETS_INDEX_DDL}
UPDATE search_index SET generation = generation + 1;
DELETE FROM search_snapshots;
DELETE FROM search_sessions;
DELETE FROM search_events;
DELETE FROM search_labels;`,
  // Schema 3 → 4: a fork's inherited prefix was indexed as its own. Which seqs are inherited is
  // in the logs, not the index: it starts over as above, and the next sync re-reads every session.
  4: `ALTER TABLE search_sessions ADD COLUMN IF NOT EXISTS own_from bigint NOT NULL DEFAULT 0;
ALTER TABLE search_sessions ALTER COLUMN own_from DROP DEFAULT;
UPDATE search_index SET generation = generation + 1;
DELETE FROM search_snapshots;
DELETE FROM search_sessions;
DELETE FROM search_events;
DELETE FROM search_labels;`,
  // Schema 4 → 5: where each session came from. Like the facets it is in the headers, not the
  // index: it starts over as above, and the next sync files every session with its lineage.
  5: `ALTER TABLE search_sessions ADD COLUMN IF NOT EXISTS parent_session text,
  ADD COLUMN IF NOT EXISTS origin text, ADD COLUMN IF NOT EXISTS forked_from text;
UPDATE search_index SET generation = generation + 1;
DELETE FROM search_snapshots;
DELETE FROM search_sessions;
DELETE FROM search_events;
DELETE FROM search_labels;`,
  // Schema 5 → 6: the project name. It is derived from `cwd`, but the index starts over as above,
  // as the SQLite index does with a schema-5 file: one upgrade path, and the rule stays in one
  // place (TypeScript's `projectNameOf`), never rewritten in SQL.
  6: `ALTER TABLE search_sessions ADD COLUMN IF NOT EXISTS project_name text;
${PROJECT_NAME_INDEX_DDL}
UPDATE search_index SET generation = generation + 1;
DELETE FROM search_snapshots;
DELETE FROM search_sessions;
DELETE FROM search_events;
DELETE FROM search_labels;`,
  // Schema 6 → 7: adjacent word pairs in every vector (ts-functions.ts) and the text index by
  // bucket. The index starts over, as at every step before: rewriting every vector and building the
  // new index in place would hold every host's start for about an hour at ten million events
  // (docs/scale.md), where a new generation lets hosts serve at once while the next sync re-reads
  // the logs. TRUNCATE: millions of rows go at once, not in minutes of DELETE under the schema lock.
  7: `${TEXT_FUNCTIONS_DDL}
UPDATE search_index SET generation = generation + 1;
DELETE FROM search_snapshots;
DELETE FROM search_sessions;
TRUNCATE search_events, search_labels;
DROP INDEX IF EXISTS search_events_tsv;
${BUCKET_INDEX_DDL}`,
  // Schema 7 → 8: the statistics target above, and the statistics taken again now (a sample, not
  // the table: ~13 s at 10,000,000 events) so the plans change at once. Nothing indexed changes:
  // the index is kept, and so is every cursor.
  8: `${SID_STATISTICS_DDL}
ANALYZE search_events (sid);`,
};

/**
 * Creates the tables once per database (several hosts opening together are serialized by
 * `ensureSchema`'s lock) and the identity row, or migrates an older schema; refuses a newer one
 * (`POSTGRES_SCHEMA_NEWER`).
 */
export async function prepareSearchSchema(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await ensureSchema(client, 'search', SEARCH_SCHEMA_VERSION, DDL, MIGRATIONS);
    await client.query(
      'INSERT INTO search_index (singleton, index_id, generation) VALUES (true, $1, 1) ON CONFLICT DO NOTHING',
      [randomUUID()],
    );
  } finally {
    client.release();
  }
}

/** The index identity now; read at every page, since another host may rebuild the index. */
export async function readIdentity(client: pg.ClientBase): Promise<IndexIdentity> {
  const { rows } = await client.query<{ index_id: string; generation: string }>(
    'SELECT index_id, generation FROM search_index',
  );
  const row = rows[0];
  if (row === undefined) throw new Error('the search_index row is missing');
  return { indexId: row.index_id, generation: Number(row.generation) };
}

export async function currentGeneration(db: SearchDatabase): Promise<number> {
  const rows = await db.query<{ generation: string }>('SELECT generation FROM search_index');
  return Number(rows[0]?.generation ?? Number.NaN);
}

/**
 * Empties the index and bumps the generation in one transaction: every cursor issued before is
 * stale from here on. Safe while other hosts sync: deleting a bookkeeping row waits for the batch
 * that holds its lock, and a later batch of that session finds no row and writes nothing; the
 * events are deleted afterwards, in a statement that sees every batch committed before, and only
 * those whose session row is gone (a session first indexed meanwhile keeps its rows); labels alike.
 */
export async function resetIndex(db: SearchDatabase): Promise<number> {
  return db.transaction(async (client) => {
    const bumped = await client.query<{ generation: string }>(
      'UPDATE search_index SET generation = generation + 1 RETURNING generation',
    );
    await client.query('DELETE FROM search_snapshots');
    await client.query('DELETE FROM search_sessions');
    await client.query(
      'DELETE FROM search_events e WHERE NOT EXISTS (SELECT 1 FROM search_sessions s WHERE s.sid = e.sid)',
    );
    await client.query(
      'DELETE FROM search_labels l WHERE NOT EXISTS (SELECT 1 FROM search_sessions s WHERE s.sid = l.sid)',
    );
    return Number(bumped.rows[0]?.generation);
  });
}
