import { SUBAGENT_ERRORS, type StrandErrorOptions } from '@strand/session/errors';

/** The subagent package's codes; callers switch on `code`, never on `message`. */
export const SUBAGENT_ERROR_CODES = SUBAGENT_ERRORS.codes;
export type SubagentControlErrorCode = (typeof SUBAGENT_ERROR_CODES)[number];

/** The codes only spawn and continue throw (`src/control/`). */
export const SUBAGENT_CONTROL_FLOW_CODES = [
  'SUBAGENT_CONTROL_DEPTH_LIMIT',
  'SUBAGENT_CONTROL_LABEL_REQUIRED',
  'SUBAGENT_CONTROL_FORK_EMPTY',
  'SUBAGENT_CONTROL_NOT_FOUND',
  'SUBAGENT_CONTROL_NOT_PARENT',
  'SUBAGENT_CONTROL_NOT_CONTINUABLE',
  'SUBAGENT_CONTROL_DESCRIPTOR_CORRUPT',
  'SUBAGENT_CONTROL_DESCRIPTOR_UNSUPPORTED',
  'SUBAGENT_CONTROL_READ_FAILED',
] as const satisfies readonly SubagentControlErrorCode[];

export interface SubagentControlErrorDetails {
  readonly sessionId?: string;
}

/** The subagent package's one error class. */
export class SubagentControlError extends SUBAGENT_ERRORS.errorClass('SubagentControlError') {
  readonly details: SubagentControlErrorDetails;

  constructor(
    code: SubagentControlErrorCode,
    message: string,
    options: StrandErrorOptions & { details?: SubagentControlErrorDetails } = {},
  ) {
    super(code, message, options);
    this.details = options.details ?? {};
  }

  protected override jsonFields(): { details: SubagentControlErrorDetails } {
    return { details: this.details };
  }
}

export function isSubagentControlError(
  error: unknown,
  code?: SubagentControlErrorCode,
): error is SubagentControlError {
  return error instanceof SubagentControlError && (code === undefined || error.code === code);
}
