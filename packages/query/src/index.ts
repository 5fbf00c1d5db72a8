export { SessionQueryError, isSessionQueryError, type SessionQueryErrorCode } from './errors.js';
export { listCorpus, type CorpusRow } from './corpus.js';
export { SessionObservation, type ObservationCut, type ObservationSource } from './observation.js';
export { windowBounds, type ObservationWindow } from './observation-window.js';
export {
  SessionQuery,
  type ObserveOptions,
  type ProjectionMode,
  type ResolutionHooks,
  type SessionQueryDeps,
} from './session-query.js';
export { suffixRepairs } from './suffix-repairs.js';
export {
  SessionSearchIndex,
  DEFAULT_RANK_WINDOW,
  DEFAULT_SEARCH_LIMIT,
  MAX_SEARCH_LIMIT,
  defaultTextExtractor,
  SearchIndexError,
  isSearchIndexError,
  SEARCH_INDEX_ERROR_CODES,
  HIGHLIGHT_START,
  HIGHLIGHT_END,
  SNIPPET_MAX_CHARS,
  type SessionSearchIndexOptions,
  type SearchIndex,
  type SearchIndexTuning,
  type MaybePromise,
  type TextExtractor,
  type SearchIndexErrorCode,
  type SearchSources,
  type SyncOptions,
  type SyncProgress,
  type SyncReport,
  type SyncFailure,
  type SearchOptions,
  type SearchPage,
  type SearchResult,
  type SearchHit,
  type LiveIndexReport,
} from './search/index.js';
