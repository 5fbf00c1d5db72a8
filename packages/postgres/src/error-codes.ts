import { COORDINATION_ERROR_CODES, type CoordinationErrorCode } from './coordination/errors.js';

/**
 * Every stable code the PostgreSQL package throws itself: the coordination codes plus the two
 * single-code classes (`PostgresPersistenceConfigError`, `SchemaVersionError`). Its persistence,
 * cache and search backends throw the codes of the packages whose seams they implement.
 */
export type PostgresErrorCode =
  | CoordinationErrorCode
  | 'POSTGRES_PERSISTENCE_CONFIG_INVALID'
  | 'POSTGRES_SCHEMA_NEWER';

export const POSTGRES_ERROR_CODES = Object.freeze([
  ...COORDINATION_ERROR_CODES,
  ...Object.keys({
    POSTGRES_PERSISTENCE_CONFIG_INVALID: true,
    POSTGRES_SCHEMA_NEWER: true,
  } satisfies Record<Exclude<PostgresErrorCode, CoordinationErrorCode>, true>),
]) as readonly PostgresErrorCode[];
