export {
  openSqlitePersistence,
  SqliteSessionPersistence,
  type SqlitePersistenceOptions,
} from './sqlite-persistence.js';
export { SQLITE_APPLICATION_ID, SQLITE_SCHEMA_VERSION } from './schema.js';
