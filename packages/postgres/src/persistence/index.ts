// Public API of the PostgreSQL persistence component.
export { PostgresPersistence } from './postgres-persistence.js';
export { openPostgresPersistence, type PostgresPersistenceOptions } from './open-postgres-persistence.js';
export { APPENDS_CHANNEL, parseAppendNotice, type AppendNotice } from './append-notice.js';
export { PostgresPersistenceConfigError } from './persistence-errors.js';
export { PERSISTENCE_SCHEMA_VERSION } from './schema.js';
