import type { SessionPersistence } from '@strand/persistence';
import type { Session, SessionId, SessionSeq } from '@strand/session';
import type { SearchIndexError } from './errors.js';
import type { FiledFacts } from './facets.js';

/** Where the index's text comes from. Only `list` and `readFrom` of the persistence are used. */
export interface SearchSources {
  /** The persisted corpus: `list` gives revision and incarnation per session, `readFrom` the suffixes. */
  readonly persistence: Pick<SessionPersistence, 'list' | 'readFrom'>;
  /** The live sessions of this process (a `SessionStore`): indexed from memory, never from disk. */
  readonly live?: { list(): Session[]; get(id: SessionId): Session | undefined };
}

export interface SyncOptions {
  readonly signal?: AbortSignal;
  /** Called after each session (and once at the end); must not throw. */
  readonly onProgress?: (progress: SyncProgress) => void;
}

export interface SyncProgress {
  readonly sessionsDone: number;
  readonly sessionsTotal: number;
  readonly eventsRead: number;
  readonly eventsIndexed: number;
}

/** One session a sync could not read; its rows stay as they were (stale, never wrong). */
export interface SyncFailure {
  readonly sessionId: SessionId;
  /** `SEARCH_PERSISTENCE_FAILED`, with the persistence error as `cause`. */
  readonly error: SearchIndexError;
}

export interface SyncReport {
  /** Sessions in the corpus (persisted ∪ live). */
  readonly sessions: number;
  /** Sessions whose index rows were brought up to date (read or indexed from memory). */
  readonly updated: number;
  /** Of those, sessions whose rows were dropped and indexed from 0 (new incarnation, inconsistent log). */
  readonly reindexed: number;
  /** Sessions that vanished from the corpus and were dropped. */
  readonly dropped: number;
  /** Events read from persistence (suffixes only). */
  readonly eventsRead: number;
  /** Events offered to the extractor (from disk or memory). */
  readonly eventsIndexed: number;
  /** FTS rows written. */
  readonly rowsWritten: number;
  readonly failures: readonly SyncFailure[];
}

export interface SearchOptions {
  /** Sessions per page, 1–100; default 20. */
  readonly limit?: number;
  /** `nextCursor` of the previous page of the same query (and the same `cwd`/`projectName`/`harness` filter). */
  readonly cursor?: string;
  /**
   * Only sessions filed under this project (`SearchIndexTuning.facets`; the runtime's is the
   * header's `cwd`). Part of the query: a page holds up to `limit` matching sessions.
   */
  readonly cwd?: string | undefined;
  /**
   * Only sessions whose `cwd` facet's last folder name is this (`projectNameOf` of
   * @strand/session: `strand` for `/home/dev/strand/`), in the query like `cwd`.
   */
  readonly projectName?: string | undefined;
  /** Only sessions filed under this harness (the runtime's: `source.harness`, `'strand'` when absent). */
  readonly harness?: string | undefined;
  readonly signal?: AbortSignal;
}

/** One matching event of a session. */
export interface SearchHit {
  readonly seq: SessionSeq;
  /**
   * At most `SNIPPET_MAX_CHARS` (200) UTF-16 units of the event's text around the match; matched
   * terms are wrapped in `HIGHLIGHT_START` (U+0002) … `HIGHLIGHT_END` (U+0003), which never occur in
   * indexed text; `…` marks cut text.
   */
  readonly snippet: string;
}

/** One session of a results page, with its best hits (up to 3, best first). */
export interface SearchResult {
  readonly sessionId: SessionId;
  /** Relevance (higher is better): the negated sum of the bm25 of its best hits in its rank window. */
  readonly score: number;
  readonly hits: readonly SearchHit[];
  /**
   * The session's current label (`SearchIndexTuning.labeler`: its title), `null` when it has none
   * (or no labeler is configured). Both engines set it; optional for a `SearchIndex` of another
   * kind that keeps no labels.
   */
  readonly label?: string | null;
  /**
   * What the session is filed under and where it came from (`SearchIndexTuning.facets`, from the
   * header of the incarnation indexed; only the fields it has), so a caller describes a result
   * without reading its session. Both engines set it; optional for a `SearchIndex` of another kind.
   */
  readonly facts?: FiledFacts;
}

export interface SearchPage {
  readonly results: readonly SearchResult[];
  /** Opaque; pass it with the same query for the next page. `null` on the last page. */
  readonly nextCursor: string | null;
  /** The index generation the page (and its cursor) belongs to. */
  readonly generation: number;
}

/** What `indexLive` did. */
export interface LiveIndexReport {
  readonly events: number;
  readonly rows: number;
}
