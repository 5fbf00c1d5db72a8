import { defined } from '@strand/session';
import { isSessionQueryError } from '@strand/query';
import type { SessionId } from '@strand/session';
import type { ChildHandle, ChildTurn } from './child-handle.js';
import { controlError, throwIfCancelled } from './errors.js';
import { resolveContinuable, type ObservedChild } from './resolve-continuable.js';

/** The one observation continuing a child reads: every projection, and the whole prepared log. */
export interface ContinueObserveOptions {
  readonly projectionMode: 'all';
  readonly requirePrepared: true;
  readonly signal?: AbortSignal;
}

export interface ContinueDeps<O extends ObservedChild> {
  /** The calling session: only a child's exact direct parent may continue it. */
  readonly parentId: SessionId;
  /** `SessionQuery.observeSession`. */
  observe(id: SessionId, options: ContinueObserveOptions): Promise<O>;
  /**
   * Attaches (or finds) the child's agent and returns a lease on it. Takes ownership of
   * `observation` and disposes it in every outcome; a cold one is published from its prepared
   * source, so the child's log is read once.
   */
  resume(observation: O): Promise<ChildHandle>;
}

export interface ContinueRequest {
  readonly childId: SessionId;
  readonly message: string;
}

export interface ContinueResult {
  readonly childId: SessionId;
  readonly label: string;
  /** Whether the child was live or was resumed from persistence. */
  readonly resumedFrom: 'live' | 'cold';
  readonly turn: ChildTurn;
}

/**
 * Continues a continuable child with one more agent-authored message and runs its turn. Reads the
 * child through exactly one observation; authorization, identity and descriptor checks are
 * `resolveContinuable`'s.
 */
export async function continueSubagent<O extends ObservedChild>(
  deps: ContinueDeps<O>,
  request: ContinueRequest,
  signal?: AbortSignal,
): Promise<ContinueResult> {
  if (typeof request.message !== 'string' || request.message.trim().length === 0) {
    throw controlError('SUBAGENT_CONTROL_INVALID_ARGUMENTS', 'a message to a child must be non-empty');
  }
  throwIfCancelled(signal, 'send_message');
  const observation = await observe(deps, request.childId, signal);
  try {
    const resolved = resolveContinuable(observation, deps.parentId);
    throwIfCancelled(signal, 'send_message');
    const resumedFrom = observation.source;
    // Ownership of the observation passes to `resume` here.
    const child = await deps.resume(observation);
    try {
      const turn = await child.run({ content: request.message, author: 'agent' }, signal);
      return { childId: resolved.id, label: resolved.label, resumedFrom, turn };
    } finally {
      child.release();
    }
  } finally {
    // Idempotent: a no-op once `resume` has disposed it; releases it on every early refusal.
    observation.dispose();
  }
}

async function observe<O extends ObservedChild>(
  deps: ContinueDeps<O>,
  id: SessionId,
  signal: AbortSignal | undefined,
): Promise<O> {
  try {
    return await deps.observe(id, {
      projectionMode: 'all',
      requirePrepared: true,
      ...defined({ signal }),
    });
  } catch (error) {
    if (isSessionQueryError(error, 'SESSION_QUERY_NOT_FOUND')) {
      throw controlError('SUBAGENT_CONTROL_NOT_FOUND', `no session ${id}`, { cause: error, sessionId: id });
    }
    if (isSessionQueryError(error, 'SESSION_QUERY_ABORTED') || signal?.aborted === true) {
      throw controlError('CANCELLED', `send_message to ${id} was cancelled`, { cause: error, sessionId: id });
    }
    throw controlError('SUBAGENT_CONTROL_READ_FAILED', `reading child ${id} failed`, {
      cause: error,
      sessionId: id,
    });
  }
}
