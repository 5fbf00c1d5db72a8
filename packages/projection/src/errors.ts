/** Stable codes of the projection package; callers switch on `code`, never on `message`. */
export type ProjectionErrorCode = (typeof PROJECTION_ERROR_CODES)[number];

export const PROJECTION_ERROR_CODES = [
  /** A unit threw (init, apply or view) against its contract: that session's whole snapshot fails; consumers map it to corrupt session data. */
  'PROJECTION_FAILED',
  /** A key is already registered with another unit or another stateVersion. */
  'PROJECTION_KEY_CONFLICT',
  /** A unit's key is empty or its stateVersion is not a positive integer. */
  'PROJECTION_UNIT_INVALID',
  /** `snapshot`/`checkpoint` of a session the registry does not track (call `track` or `bindStore` first). */
  'PROJECTION_NOT_TRACKED',
  /** Events handed to a cold fold are not contiguous from the stated start: expected seq N, got M. */
  'PROJECTION_EVENTS_NOT_CONTIGUOUS',
  /** An `onChanged`/`onTracking` listener threw; reported through `reportError`, never thrown to the appender. */
  'PROJECTION_LISTENER_FAILED',
] as const;

export interface ProjectionErrorDetails {
  readonly sessionId?: string;
  readonly key?: string;
  readonly seq?: number;
  /** Which unit method broke its contract. */
  readonly phase?: 'init' | 'apply' | 'view';
}

/** The projection package's one error class. */
export class ProjectionError extends Error {
  override readonly name = 'ProjectionError';
  readonly code: ProjectionErrorCode;
  readonly details: ProjectionErrorDetails;

  constructor(
    code: ProjectionErrorCode,
    message: string,
    options: { cause?: unknown; details?: ProjectionErrorDetails } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.details = options.details ?? {};
  }

  toJSON(): { name: string; code: ProjectionErrorCode; message: string; details: ProjectionErrorDetails } {
    return { name: this.name, code: this.code, message: this.message, details: this.details };
  }
}

export function isProjectionError(error: unknown, code?: ProjectionErrorCode): error is ProjectionError {
  return error instanceof ProjectionError && (code === undefined || error.code === code);
}

/** Wraps what a unit threw into the one typed failure. */
export function unitFailure(
  cause: unknown,
  details: ProjectionErrorDetails & { readonly key: string; readonly phase: 'init' | 'apply' | 'view' },
): ProjectionError {
  const where = details.seq === undefined ? '' : ` at seq ${details.seq}`;
  const session = details.sessionId === undefined ? '' : ` of session ${details.sessionId}`;
  return new ProjectionError(
    'PROJECTION_FAILED',
    `projection unit ${details.key} threw in ${details.phase}${where}${session}`,
    {
      cause,
      details,
    },
  );
}
