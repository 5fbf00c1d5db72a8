export {
  PostgresShareGrants,
  SHARE_GRANTS_APPLICATION_NAME,
  type PostgresShareGrantsOptions,
  type StoredShareGrant,
} from './postgres-share-grants.js';
export { SHARE_GRANTS_COMPONENT, SHARE_GRANTS_SCHEMA_VERSION, SHARE_REVOKED_CHANNEL } from './schema.js';
