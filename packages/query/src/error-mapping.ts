import { isPersistenceError } from '@strand/persistence';
import { isProjectionError } from '@strand/projection';
import { SessionQueryError } from './errors.js';

/**
 * Maps a failure of the layers below to the query vocabulary, so API owners keep their own
 * public codes without re-deciding which source failed how.
 */
export function toQueryError(error: unknown, sessionId: string): SessionQueryError {
  if (error instanceof SessionQueryError) return error;
  if (isPersistenceError(error)) {
    switch (error.code) {
      case 'PERSISTENCE_NOT_FOUND':
        return new SessionQueryError('SESSION_QUERY_NOT_FOUND', `session ${sessionId} was not found`, {
          cause: error,
          sessionId,
        });
      case 'PERSISTENCE_ABORTED':
        return aborted(sessionId, error);
      case 'PERSISTENCE_CORRUPT':
      case 'PERSISTENCE_FORMAT_UNSUPPORTED':
        return new SessionQueryError(
          'SESSION_QUERY_CORRUPT_SESSION',
          `session ${sessionId} is corrupt: ${error.message}`,
          { cause: error, sessionId },
        );
      default:
        return new SessionQueryError(
          'SESSION_QUERY_PERSISTENCE_FAILED',
          `reading session ${sessionId} failed: ${error.message}`,
          { cause: error, sessionId },
        );
    }
  }
  if (isProjectionError(error)) {
    // seed: a projection failure fails the whole exact observation as corrupt session data.
    return new SessionQueryError(
      'SESSION_QUERY_CORRUPT_SESSION',
      `projections of session ${sessionId} failed: ${error.message}`,
      { cause: error, sessionId },
    );
  }
  return new SessionQueryError(
    'SESSION_QUERY_PERSISTENCE_FAILED',
    `reading session ${sessionId} failed: ${String(error)}`,
    { cause: error, sessionId },
  );
}

export function aborted(sessionId: string, cause?: unknown): SessionQueryError {
  return new SessionQueryError('SESSION_QUERY_ABORTED', `query of session ${sessionId} was aborted`, {
    cause,
    sessionId,
  });
}

export function checkAborted(signal: AbortSignal | undefined, sessionId: string): void {
  if (signal?.aborted === true) throw aborted(sessionId, signal.reason);
}
