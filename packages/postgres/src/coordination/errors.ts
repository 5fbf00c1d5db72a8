/**
 * The coordination component's one error class. Codes are stable strings; callers switch on
 * `code`, never on `message`. `cause` keeps the underlying failure.
 */
export type CoordinationErrorCode = (typeof COORDINATION_ERROR_CODES)[number];

export const COORDINATION_ERROR_CODES = [
  /** Another host holds an unexpired lease on the session; `details` names the owner and expiry. */
  'SESSION_OWNED_ELSEWHERE',
  /** The lease table or append feed was closed. */
  'COORDINATION_CLOSED',
  /** Invalid options (a lease ttl or renewal interval out of range, an empty owner). */
  'COORDINATION_CONFIG_INVALID',
] as const;

export class CoordinationError extends Error {
  override readonly name = 'CoordinationError';
  readonly code: CoordinationErrorCode;
  readonly details: Readonly<Record<string, string | number>>;

  constructor(
    code: CoordinationErrorCode,
    message: string,
    options: { cause?: unknown; details?: Record<string, string | number> } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.details = options.details ?? {};
  }

  toJSON(): {
    name: string;
    code: CoordinationErrorCode;
    message: string;
    details: Readonly<Record<string, string | number>>;
  } {
    return { name: this.name, code: this.code, message: this.message, details: this.details };
  }
}

export function isCoordinationError(
  error: unknown,
  code?: CoordinationErrorCode,
): error is CoordinationError {
  return error instanceof CoordinationError && (code === undefined || error.code === code);
}
