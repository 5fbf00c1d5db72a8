import { PROJECTION_ERRORS, type StrandErrorOptions } from '@strand/session/errors';

/** The projection package's codes; callers switch on `code`, never on `message`. */
export const PROJECTION_ERROR_CODES = PROJECTION_ERRORS.codes;
export type ProjectionErrorCode = (typeof PROJECTION_ERROR_CODES)[number];

export interface ProjectionErrorDetails {
  readonly sessionId?: string;
  readonly key?: string;
  readonly seq?: number;
  /** Which unit method broke its contract. */
  readonly phase?: 'init' | 'apply' | 'view';
}

/** The projection package's one error class. */
export class ProjectionError extends PROJECTION_ERRORS.errorClass('ProjectionError') {
  readonly details: ProjectionErrorDetails;

  constructor(
    code: ProjectionErrorCode,
    message: string,
    options: StrandErrorOptions & { details?: ProjectionErrorDetails } = {},
  ) {
    super(code, message, options);
    this.details = options.details ?? {};
  }

  protected override jsonFields(): { details: ProjectionErrorDetails } {
    return { details: this.details };
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
