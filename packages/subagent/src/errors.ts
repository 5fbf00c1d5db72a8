/** Stable codes of the subagent package; callers switch on `code`, never on `message`. */
export type SubagentControlErrorCode =
  /** The projection registry is missing, or the `subagent` unit is not registered in it (listing cannot classify). */
  | 'SUBAGENT_CONTROL_PROJECTIONS_UNAVAILABLE'
  /** The live Session store is missing (listing cannot tell running from inactive). */
  | 'SUBAGENT_CONTROL_SESSION_STORE_UNAVAILABLE'
  /** The session query service is missing (listing has no corpus and no cold observations). */
  | 'SUBAGENT_CONTROL_QUERY_UNAVAILABLE'
  /** The query corpus could not be listed; the whole enumeration fails (per-child isolation covers cold reads only). */
  | 'SUBAGENT_CONTROL_QUERY_FAILED'
  /** A tool was called with arguments outside its schema. */
  | 'SUBAGENT_CONTROL_INVALID_ARGUMENTS'
  /** The caller's signal aborted the operation; every observation it held was disposed. */
  | 'CANCELLED';

export interface SubagentControlErrorDetails {
  readonly sessionId?: string;
}

/** The subagent package's one error class. */
export class SubagentControlError extends Error {
  override readonly name = 'SubagentControlError';
  readonly code: SubagentControlErrorCode;
  readonly details: SubagentControlErrorDetails;

  constructor(
    code: SubagentControlErrorCode,
    message: string,
    options: { cause?: unknown; details?: SubagentControlErrorDetails } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.details = options.details ?? {};
  }

  toJSON(): {
    name: string;
    code: SubagentControlErrorCode;
    message: string;
    details: SubagentControlErrorDetails;
  } {
    return { name: this.name, code: this.code, message: this.message, details: this.details };
  }
}

export function isSubagentControlError(
  error: unknown,
  code?: SubagentControlErrorCode,
): error is SubagentControlError {
  return error instanceof SubagentControlError && (code === undefined || error.code === code);
}
