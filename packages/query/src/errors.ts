import { defined } from '@strand/session';
import { SESSION_QUERY_ERRORS, type StrandErrorOptions } from '@strand/session/errors';

/** The query package's codes. Cancellation is never reported as not-found. */
export const SESSION_QUERY_ERROR_CODES = SESSION_QUERY_ERRORS.codes;
export type SessionQueryErrorCode = (typeof SESSION_QUERY_ERROR_CODES)[number];

export class SessionQueryError extends SESSION_QUERY_ERRORS.errorClass('SessionQueryError') {
  readonly sessionId: string | undefined;

  constructor(
    code: SessionQueryErrorCode,
    message: string,
    options: StrandErrorOptions & { sessionId?: string } = {},
  ) {
    super(code, message, options);
    this.sessionId = options.sessionId;
  }

  protected override jsonFields(): { sessionId?: string } {
    return defined({ sessionId: this.sessionId });
  }
}

export function isSessionQueryError(
  error: unknown,
  code?: SessionQueryErrorCode,
): error is SessionQueryError {
  return error instanceof SessionQueryError && (code === undefined || error.code === code);
}
