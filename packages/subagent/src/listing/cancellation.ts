import { defined } from '@strand/session';
import { isSessionQueryError } from '@strand/query';
import { SubagentControlError } from '../errors.js';

/** The one cancellation error of the package (the listing contract: normalized to `CANCELLED`). */
export function cancelled(cause?: unknown, sessionId?: string): SubagentControlError {
  return new SubagentControlError(
    'CANCELLED',
    sessionId === undefined
      ? 'subagent listing was cancelled'
      : `subagent listing was cancelled while reading ${sessionId}`,
    {
      ...defined({ cause }),
      ...(sessionId === undefined ? {} : { details: { sessionId } }),
    },
  );
}

export function throwIfCancelled(signal: AbortSignal | undefined, sessionId?: string): void {
  if (signal?.aborted === true) throw cancelled(signal.reason, sessionId);
}

/**
 * Whether a failed read is the caller's cancellation: the query's own abort code, or anything at
 * all once the caller's signal has aborted (a read that fails after abort is not a verdict on the
 * child).
 */
export function isCancellation(error: unknown, signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true || isSessionQueryError(error, 'SESSION_QUERY_ABORTED');
}
