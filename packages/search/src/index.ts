export {
  SessionSearchIndex,
  DEFAULT_RANK_WINDOW,
  DEFAULT_SEARCH_LIMIT,
  MAX_SEARCH_LIMIT,
  type SessionSearchIndexOptions,
} from './session-search-index.js';
export type { SearchIndex, SearchIndexTuning } from './search-index.js';
export type { MaybePromise } from './index-store.js';
export { defaultTextExtractor, type LabelExtractor, type TextExtractor } from './default-extractor.js';
export type { FacetExtractor, FacetFilter, FiledFacts, SessionFacets } from './facets.js';
export {
  SearchIndexError,
  isSearchIndexError,
  SEARCH_INDEX_ERROR_CODES,
  type SearchIndexErrorCode,
} from './errors.js';
export { HIGHLIGHT_START, HIGHLIGHT_END, SNIPPET_ELLIPSIS, SNIPPET_MAX_CHARS } from './snippet.js';
export { MAX_QUERY_CHARS, MAX_QUERY_TERMS } from './fts-query.js';
export { MAX_INDEXED_CHARS } from './write-rules.js';
export type {
  SearchSources,
  SyncOptions,
  SyncProgress,
  SyncReport,
  SyncFailure,
  SearchOptions,
  SearchPage,
  SearchResult,
  SearchHit,
  LiveIndexReport,
} from './types.js';
