export { ensureSchema, SchemaVersionError } from './schema-versions.js';
export * from './persistence/index.js';
export * from './cache/index.js';
export * from './search/index.js';
export * from './coordination/index.js';
