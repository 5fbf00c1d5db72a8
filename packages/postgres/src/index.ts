export { ensureSchema, SchemaVersionError, type SchemaMigrations } from './schema-versions.js';
export { POSTGRES_ERROR_CODES, type PostgresErrorCode } from './error-codes.js';
export {
  APPENDS_CHANNEL,
  openPostgresPersistence,
  parseAppendNotice,
  PERSISTENCE_SCHEMA_VERSION,
  PostgresPersistence,
  PostgresPersistenceConfigError,
  type AppendNotice,
  type PostgresPersistenceOptions,
} from './persistence/index.js';
export {
  openPostgresProjectionCache,
  PostgresProjectionCache,
  type OpenPostgresProjectionCacheOptions,
  DEFAULT_MIRROR_BOUNDS,
  type MirrorBounds,
} from './cache/index.js';
export {
  openPostgresSearchIndex,
  PostgresSearchIndex,
  SEARCH_SCHEMA_VERSION,
  type PostgresSearchIndexOptions,
} from './search/index.js';
export {
  APPEND_FEED_APPLICATION_NAME,
  AppendFeed,
  COORDINATION_ERROR_CODES,
  CoordinationError,
  DEFAULT_LEASE_TTL_MS,
  isCoordinationError,
  LEASES_APPLICATION_NAME,
  SessionLeases,
  type AppendFeedOptions,
  type AppendFeedSignal,
  type CoordinationErrorCode,
  type LeaseHolder,
  type LeaseLoss,
  type SessionLeasesOptions,
  type LeaseClock,
} from './coordination/index.js';
export {
  PostgresShareGrants,
  SHARE_GRANTS_APPLICATION_NAME,
  SHARE_GRANTS_COMPONENT,
  SHARE_GRANTS_SCHEMA_VERSION,
  SHARE_REVOKED_CHANNEL,
  type PostgresShareGrantsOptions,
  type StoredShareGrant,
} from './share/index.js';
