/** The query package's stable codes. Cancellation is never reported as not-found. */
export type SessionQueryErrorCode = (typeof SESSION_QUERY_ERROR_CODES)[number];

export const SESSION_QUERY_ERROR_CODES = [
  /** Neither a live nor a persisted session has this id. */
  'SESSION_QUERY_NOT_FOUND',
  /** The stored log is damaged or unreadable as a session, or a projection unit failed on it. */
  'SESSION_QUERY_CORRUPT_SESSION',
  /** The live/cold sources kept changing under the resolution (attach/detach races beyond the retry budget). */
  'SESSION_QUERY_SOURCE_CONFLICT',
  /** The caller's signal aborted the query; every lease acquired so far was released. */
  'SESSION_QUERY_ABORTED',
  /** The persistence layer failed (I/O, closed store…). */
  'SESSION_QUERY_PERSISTENCE_FAILED',
  /** Options are invalid (a negative window, an empty search…). */
  'SESSION_QUERY_INVALID_QUERY',
] as const;

export class SessionQueryError extends Error {
  override readonly name = 'SessionQueryError';
  readonly code: SessionQueryErrorCode;
  readonly sessionId: string | undefined;

  constructor(
    code: SessionQueryErrorCode,
    message: string,
    options: { cause?: unknown; sessionId?: string } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.sessionId = options.sessionId;
  }

  toJSON(): { name: string; code: SessionQueryErrorCode; message: string; sessionId?: string } {
    return {
      name: this.name,
      code: this.code,
      message: this.message,
      ...(this.sessionId === undefined ? {} : { sessionId: this.sessionId }),
    };
  }
}

export function isSessionQueryError(
  error: unknown,
  code?: SessionQueryErrorCode,
): error is SessionQueryError {
  return error instanceof SessionQueryError && (code === undefined || error.code === code);
}
