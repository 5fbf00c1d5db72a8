export {
  ProjectionCache,
  usageAt,
  type CacheReadOptions,
  type ProjectionCacheOptions,
  type ListRowListener,
  type OpenProjectionCacheOptions,
} from './cache.js';
export type { CacheRow, CacheRowStore, KeyRow } from './row-store.js';
export { SqliteCacheRowStore } from './sqlite-row-store.js';
export {
  CacheWritePolicy,
  type CacheWritePolicyOptions,
  type CacheRowWriter,
  type PolicyTimers,
} from './write-policy.js';
export {
  PROJECTION_CACHE_ERROR_CODES,
  ProjectionCacheError,
  isProjectionCacheError,
  type ProjectionCacheErrorCode,
} from './errors.js';
export type { CacheSubject } from './subject.js';
export { CACHE_SCHEMA_VERSION } from './schema.js';
export {
  LIST_HINT_KEYS,
  lastActivityAt,
  listColumnsOf,
  listHarnessOf,
  listParentOf,
  listProjectNameOf,
  listTitleOf,
  titlePrefixEnd,
  type ListColumns,
  type ListHintKey,
  type ListIndexFilter,
  type ListIndexQuery,
  type ListIndexRow,
  type ListRowHints,
  type ListRowUsage,
  type UsageIndexQuery,
  type UsageIndexSession,
} from './list-index/list-row.js';
export type { ListIdentity, ListIdentityPage, ListIndexStore } from './list-index/list-index-store.js';
export { SqliteListIndex } from './list-index/sqlite-list-index.js';
export { USAGE_COLUMNS, usageSessionsOf, type UsageQueryRow } from './list-index/usage-rows.js';
