import Database from 'better-sqlite3';
import { SessionError } from '@strand/session';
import { PersistenceError } from '../errors.js';

/**
 * Maps anything thrown inside the SQLite backend to a typed error. Our own errors (and the
 * session package's validation errors from `create`) pass through; SQLite's corruption codes
 * become PERSISTENCE_CORRUPT; every other failure becomes PERSISTENCE_IO with the original as
 * `cause`. better-sqlite3 rolls back the enclosing transaction before the error reaches us, so
 * the stored log is as it was before the failed call.
 */
export function toPersistenceError(error: unknown, what: string, sessionId?: string): Error {
  if (error instanceof PersistenceError || error instanceof SessionError) return error;
  const options = { cause: error, ...(sessionId === undefined ? {} : { sessionId }) };
  if (error instanceof Database.SqliteError && isCorruptionCode(error.code)) {
    return new PersistenceError(
      'PERSISTENCE_CORRUPT',
      `${what}: the SQLite database is damaged (${error.code})`,
      options,
    );
  }
  const detail = error instanceof Error ? error.message : String(error);
  return new PersistenceError('PERSISTENCE_IO', `${what} failed: ${detail}`, options);
}

function isCorruptionCode(code: string): boolean {
  return code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT' || code.startsWith('SQLITE_CORRUPT_');
}

/** True for the unique/primary-key violation a racing `create` of the same id produces. */
export function isUniqueViolation(error: unknown): boolean {
  return (
    error instanceof Database.SqliteError &&
    (error.code === 'SQLITE_CONSTRAINT_UNIQUE' || error.code === 'SQLITE_CONSTRAINT_PRIMARYKEY')
  );
}

export function notFound(id: string): PersistenceError {
  return new PersistenceError('PERSISTENCE_NOT_FOUND', `no stored session ${id}`, { sessionId: id });
}

export function exists(id: string): PersistenceError {
  return new PersistenceError('PERSISTENCE_EXISTS', `session ${id} already exists`, { sessionId: id });
}

export function attachmentNotFound(id: string, ref: string): PersistenceError {
  return new PersistenceError('PERSISTENCE_ATTACHMENT_NOT_FOUND', `session ${id} has no attachment ${ref}`, {
    sessionId: id,
  });
}

/** "expected N, got M": the batch does not continue the stored log (another writer won, or a gap). */
export function seqConflict(
  id: string,
  expected: number,
  got: number | undefined,
  where = '',
): PersistenceError {
  return new PersistenceError(
    'PERSISTENCE_SEQ_CONFLICT',
    `append to session ${id}${where}: expected ${expected}, got ${got}`,
    {
      sessionId: id,
      location: { seq: expected },
    },
  );
}
