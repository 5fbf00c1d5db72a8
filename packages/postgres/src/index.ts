export { ensureSchema, SchemaVersionError } from './schema-versions.js';
