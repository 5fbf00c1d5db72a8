import { POSTGRES_ERRORS } from '@strand/session/errors';

/**
 * Every stable code the PostgreSQL package throws itself: the coordination codes plus the two
 * single-code classes (`PostgresPersistenceConfigError`, `SchemaVersionError`). Its persistence,
 * cache and search backends throw the codes of the packages whose seams they implement.
 */
export const POSTGRES_ERROR_CODES = POSTGRES_ERRORS.codes;
export type PostgresErrorCode = (typeof POSTGRES_ERROR_CODES)[number];
