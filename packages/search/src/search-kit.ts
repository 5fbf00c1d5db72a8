// `@strand/search/kit`: the engine-neutral parts of the search index, for another engine
// (the PostgreSQL index of `@strand/postgres`) to implement `SearchIndex` with the same meaning —
// one sync, one set of write rules, one query splitting, one snippet builder, one cursor codec.
// Not for index users: they take `SearchIndex` from `@strand/search`.
export { syncIndex } from './sync.js';
export type { SearchIndexStore, IndexedIncarnation, MaybePromise } from './index-store.js';
export type { SessionRow } from './session-rows.js';
export {
  planBegin,
  afterBegin,
  planAppend,
  isOwnSeq,
  indexedText,
  indexedLabel,
  MAX_INDEXED_CHARS,
  type AppendOutcome,
  type AppendPlan,
  type BeginMode,
  type BeginStep,
  type IndexedText,
  type Provenance,
} from './write-rules.js';
export {
  indexMemory,
  INDEX_BATCH_EVENTS,
  type IndexCounts,
  type IndexMemoryOptions,
  type LiveLog,
} from './memory-indexing.js';
export { literalQuery, queryTerms, type LiteralQuery } from './fts-query.js';
export { tokenize, foldToken, queryPhrases, type TextToken } from './text-tokens.js';
export { buildSnippet } from './snippet-builder.js';
export { boundSnippet, sanitizeIndexedText } from './snippet.js';
export { encodeCursor, decodeCursor, type SearchCursor } from './cursor.js';
export {
  rankWindow,
  HITS_PER_SESSION,
  type MatchRow,
  type RankedEntry,
  type RankedWindow,
} from './ranked-window.js';
export {
  MAX_WINDOWS_PER_PAGE,
  MAX_LABEL_MATCHES,
  checkCursorIdentity,
  nextPageCursor,
  usableSnapshot,
  pageLimit,
  encodeSnapshotEntries,
  decodeSnapshotEntries,
  type IndexIdentity,
  type PageQuery,
  type SnapshotHead,
  type SnapshotRetention,
} from './page-rules.js';
export { throwIfSearchAborted } from './errors.js';
export {
  activeFilter,
  facetConditions,
  filterKey,
  FACT_COLUMNS,
  factsOfColumns,
  factValues,
  type FactValues,
  indexedFacets,
  type FacetExtractor,
  type FactColumns,
  type FiledFacts,
  type FacetFilter,
  type IndexedFacets,
  type IndexedSessionFacts,
  type SessionFacets,
} from './facets.js';
