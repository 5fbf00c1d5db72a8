// Public API of the PostgreSQL projection cache.
export {
  openPostgresProjectionCache,
  PostgresProjectionCache,
  type OpenPostgresProjectionCacheOptions,
} from './postgres-cache.js';
export { DEFAULT_MIRROR_BOUNDS, type MirrorBounds } from './mirror.js';
