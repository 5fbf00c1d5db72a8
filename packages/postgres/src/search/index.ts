// Public API of the PostgreSQL search component.
export {
  PostgresSearchIndex,
  openPostgresSearchIndex,
  type PostgresSearchIndexOptions,
} from './postgres-search-index.js';
export { SEARCH_SCHEMA_VERSION } from './search-schema.js';
