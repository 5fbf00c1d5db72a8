import { defined } from '@strand/session';
import { PROJECTION_CACHE_ERRORS, type StrandErrorOptions } from '@strand/session/errors';

/** The projection-cache package's codes; callers switch on `code`, never on `message`. */
export const PROJECTION_CACHE_ERROR_CODES = PROJECTION_CACHE_ERRORS.codes;
export type ProjectionCacheErrorCode = (typeof PROJECTION_CACHE_ERROR_CODES)[number];

/** The projection-cache package's one error class. Reads never throw it: a fault reading a row is a miss. */
export class ProjectionCacheError extends PROJECTION_CACHE_ERRORS.errorClass('ProjectionCacheError') {
  readonly sessionId: string | undefined;

  constructor(
    code: ProjectionCacheErrorCode,
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

export function isProjectionCacheError(
  error: unknown,
  code?: ProjectionCacheErrorCode,
): error is ProjectionCacheError {
  return error instanceof ProjectionCacheError && (code === undefined || error.code === code);
}
