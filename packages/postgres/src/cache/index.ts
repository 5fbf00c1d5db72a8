// Public API of the PostgreSQL projection cache.
export {
  openPostgresProjectionCache,
  PostgresProjectionCache,
  type OpenPostgresProjectionCacheOptions,
} from './postgres-cache.js';
