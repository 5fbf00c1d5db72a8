/** Stable codes of the projection-cache package; callers switch on `code`, never on `message`. */
export type ProjectionCacheErrorCode = (typeof PROJECTION_CACHE_ERROR_CODES)[number];

export const PROJECTION_CACHE_ERROR_CODES = [
  /** The cache database could not be opened or its schema created. */
  'PROJECTION_CACHE_OPEN_FAILED',
  /** The database was written by a newer cache schema than this build reads. */
  'PROJECTION_CACHE_SCHEMA_UNSUPPORTED',
  /**
   * A row write or forget failed (store error, state not serializable): thrown by `put`/`forget`,
   * contained and logged by the write policy; a store that writes behind logs later failures with it.
   */
  'PROJECTION_CACHE_WRITE_FAILED',
  /** The cache was closed. */
  'PROJECTION_CACHE_CLOSED',
] as const;

/** The projection-cache package's one error class. Reads never throw it: a fault reading a row is a miss. */
export class ProjectionCacheError extends Error {
  override readonly name = 'ProjectionCacheError';
  readonly code: ProjectionCacheErrorCode;
  readonly sessionId: string | undefined;

  constructor(
    code: ProjectionCacheErrorCode,
    message: string,
    options: { cause?: unknown; sessionId?: string } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.sessionId = options.sessionId;
  }

  toJSON(): { name: string; code: ProjectionCacheErrorCode; message: string; sessionId?: string } {
    return {
      name: this.name,
      code: this.code,
      message: this.message,
      ...(this.sessionId === undefined ? {} : { sessionId: this.sessionId }),
    };
  }
}

export function isProjectionCacheError(
  error: unknown,
  code?: ProjectionCacheErrorCode,
): error is ProjectionCacheError {
  return error instanceof ProjectionCacheError && (code === undefined || error.code === code);
}
