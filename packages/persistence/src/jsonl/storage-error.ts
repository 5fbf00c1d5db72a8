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
  return new PersistenceError('PERSISTENCE_IO', `storage failed for session ${id}${osCode(error)}`, {
    cause: error,
    sessionId: id,
  });
}

/**
 * The package error for a failed file operation of the store as a whole (opening it, listing
 * it): a `PersistenceError` stays as it is, anything else is `PERSISTENCE_IO` with `cause`.
 */
export function storeError(error: unknown, what: string): PersistenceError {
  if (error instanceof PersistenceError) return error;
  return new PersistenceError('PERSISTENCE_IO', `${what} failed${osCode(error)}`, { cause: error });
}

/**
 * " (EACCES)": the OS error code of `error` for a message, or nothing. Messages reach the wire, so
 * they name the code, never the OS message (which holds paths); `cause` keeps the whole error.
 */
export function osCode(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' ? ` (${code})` : '';
}

/** Runs `body`, turning whatever it throws into the package error for session `id`. */
export async function typedStorage<T>(id: string, body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (error) {
    throw storageError(error, id);
  }
}
