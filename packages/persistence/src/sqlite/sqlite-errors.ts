import Database from 'better-sqlite3';
import { SessionError, defined } from '@strand/session';
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
  const options = { cause: error, ...defined({ sessionId }) };
  if (error instanceof Database.SqliteError && isCorruptionCode(error.code)) {
    return new PersistenceError(
      'PERSISTENCE_CORRUPT',
      `${what}: the SQLite database is damaged (${error.code})`,
      options,
    );
  }
  // Every other failure of the engine or the file below it (SQLITE_FULL, SQLITE_IOERR_*,
  // SQLITE_READONLY, SQLITE_CANTOPEN, SQLITE_BUSY…): the storage failed; the code stays in the message.
  const detail = error instanceof Error ? error.message : String(error);
  const code = error instanceof Database.SqliteError ? ` (${error.code})` : '';
  return new PersistenceError('PERSISTENCE_IO', `${what} failed: ${detail}${code}`, options);
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

export {
  attachmentNotFound,
  seqConflict,
  sessionExists as exists,
  sessionNotFound as notFound,
} from '../errors.js';
