import { PersistenceError } from '@strand/persistence';
import { SessionError, defined } from '@strand/session';
import { SchemaVersionError } from '../schema-versions.js';

/**
 * Maps anything thrown inside the PostgreSQL backend to a typed error. Our own errors and the
 * session package's validation errors (from `create`) pass through; a newer `strand_schema` row
 * is PERSISTENCE_FORMAT_UNSUPPORTED; every server or connection failure becomes PERSISTENCE_IO
 * with the original as `cause`. A failed write is rolled back by the server, so the stored log
 * is as it was before the batch.
 */
export function toPersistenceError(error: unknown, what: string, sessionId?: string): Error {
  if (error instanceof PersistenceError || error instanceof SessionError) return error;
  const options = { cause: error, ...defined({ sessionId }) };
  if (error instanceof SchemaVersionError) {
    return new PersistenceError('PERSISTENCE_FORMAT_UNSUPPORTED', `${what}: ${error.message}`, options);
  }
  const detail = error instanceof Error ? error.message : String(error);
  return new PersistenceError('PERSISTENCE_IO', `${what} failed: ${detail}`, options);
}

/** The SQLSTATE of a server error, if `error` is one. */
export function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

export function closed(what: string, sessionId?: string): PersistenceError {
  return new PersistenceError('PERSISTENCE_CLOSED', `${what}: the PostgreSQL session store is closed`, {
    ...defined({ sessionId }),
  });
}

export function corrupt(sessionId: string, seq: number, why: string, cause?: unknown): PersistenceError {
  return new PersistenceError('PERSISTENCE_CORRUPT', `session ${sessionId}, seq ${seq}: ${why}`, {
    sessionId,
    location: { seq },
    ...defined({ cause }),
  });
}

/** A bad option of `openPostgresPersistence` (a configuration mistake, not a storage failure). */
export class PostgresPersistenceConfigError extends POSTGRES_ERRORS.codeClass(
  'POSTGRES_PERSISTENCE_CONFIG_INVALID',
  'PostgresPersistenceConfigError',
) {}

export {
  attachmentNotFound,
  seqConflict,
  sessionExists as exists,
  sessionNotFound as notFound,
} from '@strand/persistence';
import { POSTGRES_ERRORS } from '@strand/session/errors';
