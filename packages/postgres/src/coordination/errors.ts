import { POSTGRES_ERRORS, type StrandErrorOptions } from '@strand/session/errors';

/** The coordination part's codes: the first of the PostgreSQL package's declaration. */
export const COORDINATION_ERROR_CODES = [
  'SESSION_OWNED_ELSEWHERE',
  'COORDINATION_CLOSED',
  'COORDINATION_CONFIG_INVALID',
] as const satisfies readonly (typeof POSTGRES_ERRORS.codes)[number][];
export type CoordinationErrorCode = (typeof COORDINATION_ERROR_CODES)[number];

/** The coordination component's one error class; `details` name a lease's owner and expiry. */
export class CoordinationError extends POSTGRES_ERRORS.errorClass<CoordinationErrorCode>(
  'CoordinationError',
) {
  readonly details: Readonly<Record<string, string | number>>;

  constructor(
    code: CoordinationErrorCode,
    message: string,
    options: StrandErrorOptions & { details?: Record<string, string | number> } = {},
  ) {
    super(code, message, options);
    this.details = options.details ?? {};
  }

  protected override jsonFields(): { details: Readonly<Record<string, string | number>> } {
    return { details: this.details };
  }
}

export function isCoordinationError(
  error: unknown,
  code?: CoordinationErrorCode,
): error is CoordinationError {
  return error instanceof CoordinationError && (code === undefined || error.code === code);
}
