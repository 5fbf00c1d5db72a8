import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { SearchIndexError } from './errors.js';
import type { IndexIdentity } from './page-rules.js';

/** Bumped on any incompatible change below; a newer file is refused, never misread. */
export const SEARCH_SCHEMA_VERSION = 6;
/** `PRAGMA application_id` of a search index file ("SSIX"), so another program's database is never touched. */
export const SEARCH_APPLICATION_ID = 0x53534958;

/**
 * - `search_text`: one FTS5 row per indexed event. The rowid packs the session's small integer key
 *   and the event's seq (`sid << 32 | seq`), so a session's rows are one contiguous rowid range and
 *   grouping, range deletes and per-session hit queries need no content lookup.
 * - `search_labels` (schema 2): one FTS5 row per event that set the session's label (a
 *   `LabelExtractor`), same rowid packing; the session's label is its row with the largest rowid.
 * - `search_sessions`: bookkeeping per session. `cut` is the next seq to index; `durable_cut` the
 *   prefix known to match persistence (rows at and after it came from a live session's memory and
 *   are re-read from disk once the session is cold); `revision` the persisted revision last read.
 *   AUTOINCREMENT: a sid is never reused, so a snapshot never names a different session.
 *   `cwd`/`harness` (schema 3): the session's facets (`FacetExtractor`, from the header of the
 *   incarnation indexed; `null` for none), which a filtered search narrows to inside its query.
 *   `own_from` (schema 4): the first seq the session wrote itself (a fork's inherited prefix length,
 *   else 0); its events below it have no text rows and a label set there matches nothing, since
 *   their hits belong to the session that first wrote them.
 *   `parent_session`/`origin`/`forked_from` (schema 5): where the session came from (the same
 *   extractor, `null` for none), read back with each result so a search answer describes its
 *   sessions without reading their logs; never filtered by.
 *   `project_name` (schema 6): the `cwd` facet's last folder name (`projectNameOf`), which
 *   `session.search`'s `projectName` narrows to inside the query, as the list index's column does.
 * - `search_snapshots` / `search_snapshot_chunks`: frozen result orders behind pagination cursors;
 *   the entries ranked by one page call are one JSON chunk (one row write, however many sessions).
 *   `filter` (schema 3) is the facet filter the snapshot ranks under (`filterKey`; `null`: none).
 * - `search_meta`: `index_id` (random, per file) and `generation` (bumped by every rebuild).
 */
const TEXT_DDL = `CREATE VIRTUAL TABLE IF NOT EXISTS search_text USING fts5(text, tokenize = 'unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE IF NOT EXISTS search_labels USING fts5(text, tokenize = 'unicode61 remove_diacritics 2')`;

/** Every table but `search_meta`: what an older file's migration drops before creating them anew. */
const DROP_INDEXED = `DROP TABLE IF EXISTS search_text; DROP TABLE IF EXISTS search_labels;
DROP TABLE IF EXISTS search_sessions; DROP TABLE IF EXISTS search_snapshot_chunks; DROP TABLE IF EXISTS search_snapshots;`;

const DDL = `
CREATE TABLE IF NOT EXISTS search_meta (
  key   TEXT PRIMARY KEY,
  value ANY NOT NULL
) WITHOUT ROWID, STRICT;
CREATE TABLE IF NOT EXISTS search_sessions (
  sid         INTEGER PRIMARY KEY AUTOINCREMENT,
  session_id  TEXT    NOT NULL UNIQUE,
  incarnation TEXT,
  revision    TEXT,
  cut         INTEGER NOT NULL,
  durable_cut INTEGER NOT NULL,
  own_from    INTEGER NOT NULL,
  cwd         TEXT,
  project_name TEXT,
  harness     TEXT,
  parent_session TEXT,
  origin      TEXT,
  forked_from TEXT
);
CREATE INDEX IF NOT EXISTS search_sessions_cwd ON search_sessions (cwd);
CREATE INDEX IF NOT EXISTS search_sessions_project_name ON search_sessions (project_name);
CREATE INDEX IF NOT EXISTS search_sessions_harness ON search_sessions (harness);
CREATE TABLE IF NOT EXISTS search_snapshots (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  generation INTEGER NOT NULL,
  expression TEXT    NOT NULL,
  filter     TEXT,
  upper_sid  INTEGER,
  size       INTEGER NOT NULL,
  touched_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS search_snapshots_touched ON search_snapshots (touched_at, id);
CREATE TABLE IF NOT EXISTS search_snapshot_chunks (
  snapshot_id    INTEGER NOT NULL,
  first_position INTEGER NOT NULL,
  count          INTEGER NOT NULL,
  entries        TEXT    NOT NULL,
  PRIMARY KEY (snapshot_id, first_position)
);
${TEXT_DDL};
`;

export type { IndexIdentity } from './page-rules.js';

/**
 * Opens (or creates) a search index file, or `':memory:'`. The format is checked before anything is
 * written. `synchronous = OFF`: the index is derived and rebuildable from the logs, so losing the
 * last commits in a power cut costs a re-sync, not data; it makes each batch commit cheap.
 * `connect` makes the connection (tests interpose on it).
 */
export function openSearchDatabase(
  path: string,
  connect: (path: string) => Database.Database = (file) => new Database(file),
): Database.Database {
  let db: Database.Database;
  try {
    db = connect(path);
  } catch (error) {
    throw new SearchIndexError('SEARCH_INDEX_FAILED', `cannot open search index ${path}`, {
      cause: error,
    });
  }
  try {
    // Another process holding the file's lock makes this one wait (the connection's timeout,
    // better-sqlite3's 5 s by default) rather than fail. The check and the creation in one IMMEDIATE transaction, so openers of one file are
    // serialized: each sees the file either untouched or fully prepared, never in between (two
    // fresh openers once both created it, or one read application_id 0 before the other set it
    // and counted its tables after, and refused the file as another program's).
    db.transaction(() => prepareIndexSchema(db, path)).immediate();
    // Only once the file is known to be a search index: WAL is a persistent change to the file.
    if (!db.memory) db.pragma('journal_mode = WAL');
    db.pragma('synchronous = OFF');
    db.pragma('cache_size = -32768');
    return db;
  } catch (error) {
    db.close();
    if (error instanceof SearchIndexError) throw error;
    throw new SearchIndexError('SEARCH_INDEX_FAILED', `cannot open search index ${path}`, {
      cause: error,
    });
  }
}

/** Reads the index identity; read at every search, since another handle on the file may rebuild it. */
export class IndexMeta {
  readonly #select: Database.Statement<[], { key: string; value: unknown }>;

  constructor(db: Database.Database) {
    this.#select = db.prepare(`SELECT key, value FROM search_meta WHERE key IN ('index_id', 'generation')`);
  }

  read(): IndexIdentity {
    const rows = this.#select.all();
    const value = (key: string): unknown => rows.find((row) => row.key === key)?.value;
    return { indexId: String(value('index_id')), generation: Number(value('generation')) };
  }
}

/**
 * Empties the index and bumps the generation, in one transaction: every cursor issued before is
 * stale from here on. The FTS table is dropped and recreated (far cheaper than deleting its rows).
 */
export function resetIndex(db: Database.Database): number {
  return db
    .transaction(() => {
      db.exec(`DROP TABLE IF EXISTS search_text; DROP TABLE IF EXISTS search_labels; ${TEXT_DDL};
      DELETE FROM search_sessions; DELETE FROM search_snapshot_chunks; DELETE FROM search_snapshots;
      UPDATE search_meta SET value = value + 1 WHERE key = 'generation';`);
      return new IndexMeta(db).read().generation;
    })
    .immediate();
}

/**
 * Refuses a file of another program or of a newer schema, else creates what is missing. An older
 * file lacks columns and what they need the logs for (facets and, from schema 5, the lineage need
 * the headers; schema 6's project name is
 * derived from `cwd` but an index of schema 5 is re-read like the rest, one path for every upgrade; before schema 4 a fork's inherited prefix was indexed as its own): the index is
 * derived, so its tables start over (the meta row, and so the index id, stays; the generation is
 * bumped: its old cursors are stale) and the next sync re-reads the logs. Runs in the caller's
 * transaction.
 */
function prepareIndexSchema(db: Database.Database, path: string): void {
  const applicationId = db.pragma('application_id', { simple: true }) as number;
  const version = db.pragma('user_version', { simple: true }) as number;
  if (applicationId === 0) {
    const objects = db.prepare('SELECT count(*) FROM sqlite_schema').pluck().get() as number;
    if (objects !== 0 || version !== 0) refuse(`${path} is a SQLite database of another program`);
  } else if (applicationId !== SEARCH_APPLICATION_ID) {
    refuse(`${path} is not a Strand search index (application_id 0x${(applicationId >>> 0).toString(16)})`);
  } else if (version > SEARCH_SCHEMA_VERSION) {
    refuse(`${path} has search schema ${version}, newer than this build reads (${SEARCH_SCHEMA_VERSION})`);
  }
  const older = version !== 0 && version < SEARCH_SCHEMA_VERSION;
  if (older) db.exec(DROP_INDEXED);
  db.exec(DDL);
  db.prepare(`INSERT OR IGNORE INTO search_meta (key, value) VALUES ('index_id', ?), ('generation', 1)`).run(
    randomUUID(),
  );
  db.pragma(`application_id = ${SEARCH_APPLICATION_ID}`);
  db.pragma(`user_version = ${SEARCH_SCHEMA_VERSION}`);
  if (older) resetIndex(db);
}

function refuse(message: string): never {
  throw new SearchIndexError('SEARCH_INDEX_FAILED', message);
}
