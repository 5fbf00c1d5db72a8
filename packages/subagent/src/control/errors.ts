import { defined } from '@strand/session';
import type { SUBAGENT_CONTROL_FLOW_CODES } from '../errors.js';
import { SubagentControlError, type SubagentControlErrorCode } from '../errors.js';

/** The codes only spawn and continue throw (all in the package's `SubagentControlErrorCode`). */
export type ControlFlowCode = (typeof SUBAGENT_CONTROL_FLOW_CODES)[number];

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
  return new SubagentControlError(code, message, {
    ...defined({ cause: options.cause }),
    ...(options.sessionId === undefined ? {} : { details: { sessionId: options.sessionId } }),
  });
}

/** Whether `error` is the package's error with one of the control codes (or `code`). */
export function isControlError(
  error: unknown,
  code?: ControlErrorCode,
): error is SubagentControlError & { readonly code: ControlErrorCode } {
  return error instanceof SubagentControlError && (code === undefined || error.code === code);
}

/** Throws `CANCELLED` if `signal` has aborted. */
export function throwIfCancelled(signal: AbortSignal | undefined, what: string): void {
  if (signal?.aborted === true)
    throw controlError('CANCELLED', `${what} was cancelled`, { cause: signal.reason });
}
