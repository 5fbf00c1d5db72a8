import { SESSION_ERRORS } from './error-declarations/session.js';
import type { StrandErrorOptions } from './define-errors.js';

/** The session package's codes (declared in `error-declarations/session.ts`). */
export const SESSION_ERROR_CODES = SESSION_ERRORS.codes;
export type SessionErrorCode = (typeof SESSION_ERROR_CODES)[number];

/** The session package's one error class; `details` are facts a client may be shown. */
export class SessionError extends SESSION_ERRORS.errorClass('SessionError') {
  readonly details: Readonly<Record<string, unknown>>;

  constructor(
    code: SessionErrorCode,
    message: string,
    options?: StrandErrorOptions & { details?: Record<string, unknown> },
  ) {
    super(code, message, options);
    this.details = options?.details ?? {};
  }

  protected override jsonFields(): { details: Readonly<Record<string, unknown>> } {
    return { details: this.details };
  }
}
