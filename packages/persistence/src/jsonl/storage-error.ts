import { PersistenceError, sessionNotFound } from '../errors.js';

/**
 * The package error for anything a file operation on session `id` threw: a `PersistenceError`
 * stays as it is, an abort is `PERSISTENCE_ABORTED`, a missing file is the shared not-found error
 * (the log went away between locating and reading it), and every other failure of the storage is
 * `PERSISTENCE_IO` with the original error as `cause`.
 */
export function storageError(error: unknown, id: string): PersistenceError {
  if (error instanceof PersistenceError) return error;
  const e = error as NodeJS.ErrnoException;
  if (e.name === 'AbortError' || e.code === 'ABORT_ERR') {
    return new PersistenceError('PERSISTENCE_ABORTED', `read of ${id} was aborted`, {
      cause: error,
      sessionId: id,
    });
  }
  if (e.code === 'ENOENT') return sessionNotFound(id);
  return new PersistenceError('PERSISTENCE_IO', `storage failed for session ${id}: ${e.message}`, {
    cause: error,
    sessionId: id,
  });
}
