/** The codes only spawn and continue throw (`src/control/`). */
export const SUBAGENT_CONTROL_FLOW_CODES = [
  /** A spawn would put the child deeper than the delegation depth limit. */
  'SUBAGENT_CONTROL_DEPTH_LIMIT',
  /** A continuable child was requested without a label. */
  'SUBAGENT_CONTROL_LABEL_REQUIRED',
  /** A forked spawn was requested but the parent has no closed turn to seed the child with. */
  'SUBAGENT_CONTROL_FORK_EMPTY',
  /** No live or stored session has the requested child id. */
  'SUBAGENT_CONTROL_NOT_FOUND',
  /** The caller is not the child's exact direct parent (or the session is no subagent at all). */
  'SUBAGENT_CONTROL_NOT_PARENT',
  /** The child is one-shot: it cannot be continued. */
  'SUBAGENT_CONTROL_NOT_CONTINUABLE',
  /** The child's identity is missing or inherited, or its descriptor at the identity's seq is malformed. */
  'SUBAGENT_CONTROL_DESCRIPTOR_CORRUPT',
  /** The child's descriptor has a version this build does not read. */
  'SUBAGENT_CONTROL_DESCRIPTOR_UNSUPPORTED',
  /** Reading the child failed (corrupt log, persistence failure); `cause` keeps the reader's error. */
  'SUBAGENT_CONTROL_READ_FAILED',
] as const;

export type SubagentControlErrorCode = (typeof SUBAGENT_ERROR_CODES)[number];

/** Stable codes of the subagent package; callers switch on `code`, never on `message`. */
export const SUBAGENT_ERROR_CODES = [
  /** The projection registry is missing, or the `subagent` unit is not registered in it (listing cannot classify). */
  'SUBAGENT_CONTROL_PROJECTIONS_UNAVAILABLE',
  /** The live Session store is missing (listing cannot tell running from inactive). */
  'SUBAGENT_CONTROL_SESSION_STORE_UNAVAILABLE',
  /** The session query service is missing (listing has no corpus and no cold observations). */
  'SUBAGENT_CONTROL_QUERY_UNAVAILABLE',
  /** The query corpus could not be listed; the whole enumeration fails (per-child isolation covers cold reads only). */
  'SUBAGENT_CONTROL_QUERY_FAILED',
  /** A tool was called with arguments outside its schema. */
  'SUBAGENT_CONTROL_INVALID_ARGUMENTS',
  /** The caller's signal aborted the operation; every observation it held was disposed. */
  'CANCELLED',
  ...SUBAGENT_CONTROL_FLOW_CODES,
  /** The descriptor writer refused a descriptor the parser would not accept (`DescriptorWriteError`). */
  'SUBAGENT_DESCRIPTOR_INVALID',
] as const;

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
