import { SubagentControlError, type SubagentControlErrorCode } from '../errors.js';

/**
 * The codes spawn and continue add to the package's one error class (`SubagentControlError` in
 * `src/errors.ts`). They belong in its `SubagentControlErrorCode` union; until they are listed
 * there, `controlError` is the single place that widens the type (the runtime class is the same).
 */
export type ControlFlowCode =
  /** A spawn would put the child deeper than the delegation depth limit. */
  | 'SUBAGENT_CONTROL_DEPTH_LIMIT'
  /** A continuable child was requested without a label. */
  | 'SUBAGENT_CONTROL_LABEL_REQUIRED'
  /** A forked spawn was requested but the parent has no closed turn to seed the child with. */
  | 'SUBAGENT_CONTROL_FORK_EMPTY'
  /** No live or stored session has the requested child id. */
  | 'SUBAGENT_CONTROL_NOT_FOUND'
  /** The caller is not the child's exact direct parent (or the session is no subagent at all). */
  | 'SUBAGENT_CONTROL_NOT_PARENT'
  /** The child is one-shot: it cannot be continued. */
  | 'SUBAGENT_CONTROL_NOT_CONTINUABLE'
  /** The child's identity is missing or inherited, or its descriptor at the identity's seq is malformed. */
  | 'SUBAGENT_CONTROL_DESCRIPTOR_CORRUPT'
  /** The child's descriptor has a version this build does not read. */
  | 'SUBAGENT_CONTROL_DESCRIPTOR_UNSUPPORTED'
  /** Reading the child failed (corrupt log, persistence failure); `cause` keeps the reader's error. */
  | 'SUBAGENT_CONTROL_READ_FAILED';

/** Every code spawn/continue throw: their own plus the package codes they reuse. */
export type ControlErrorCode =
  | ControlFlowCode
  | Extract<
      SubagentControlErrorCode,
      'SUBAGENT_CONTROL_INVALID_ARGUMENTS' | 'SUBAGENT_CONTROL_PROJECTIONS_UNAVAILABLE' | 'CANCELLED'
    >;

/** A `SubagentControlError` with a control code; `sessionId` goes to `details` as everywhere in the package. */
export function controlError(
  code: ControlErrorCode,
  message: string,
  options: { cause?: unknown; sessionId?: string } = {},
): SubagentControlError {
  return new SubagentControlError(code as SubagentControlErrorCode, message, {
    ...(options.cause === undefined ? {} : { cause: options.cause }),
    ...(options.sessionId === undefined ? {} : { details: { sessionId: options.sessionId } }),
  });
}

/** Whether `error` is the package's error with one of the control codes (or `code`). */
export function isControlError(
  error: unknown,
  code?: ControlErrorCode,
): error is SubagentControlError & { readonly code: ControlErrorCode } {
  return error instanceof SubagentControlError && (code === undefined || (error.code as string) === code);
}

/** Throws `CANCELLED` if `signal` has aborted. */
export function throwIfCancelled(signal: AbortSignal | undefined, what: string): void {
  if (signal?.aborted === true)
    throw controlError('CANCELLED', `${what} was cancelled`, { cause: signal.reason });
}
