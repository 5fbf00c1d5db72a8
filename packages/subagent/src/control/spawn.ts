import { defined } from '@strand/session';
import type { SessionId, SessionLogOffset } from '@strand/session';
import type { ChildHandle, ChildTurn } from './child-handle.js';
import { throwIfCancelled } from './errors.js';
import {
  planChild,
  type ChildPlan,
  type ParentView,
  type SpawnMode,
  type SpawnRequest,
} from './plan-child.js';

/** What spawning needs from the runtime; every effect goes through these. */
export interface SpawnDeps {
  /** The calling session: the child's exact direct parent. */
  readonly parent: ParentView;
  readonly maxDepth: number;
  newSessionId(): SessionId;
  now(): number;
  /**
   * Creates the planned child durably — its inherited prefix, then `plan.firstEvents` as its first
   * own events — attaches an agent to it and returns a lease on it.
   */
  start(plan: ChildPlan): Promise<ChildHandle>;
}

export interface SpawnResult {
  readonly childId: SessionId;
  readonly mode: SpawnMode;
  readonly label?: string;
  readonly forked: boolean;
  readonly inheritedEventCount: SessionLogOffset;
  /** The child's first turn. */
  readonly turn: ChildTurn;
}

/**
 * Creates a child and runs its first turn with `task` as an agent-authored message, then lets it
 * settle. A signal aborted before the child exists is `CANCELLED`; once the child runs, an abort
 * ends its turn `aborted`, reported in `turn` (the child exists and its log says so).
 */
export async function spawnSubagent(
  deps: SpawnDeps,
  request: SpawnRequest,
  signal?: AbortSignal,
): Promise<SpawnResult> {
  throwIfCancelled(signal, 'spawn_agent');
  const plan = planChild(deps.parent, request, {
    id: deps.newSessionId(),
    createdAt: deps.now(),
    maxDepth: deps.maxDepth,
  });
  throwIfCancelled(signal, 'spawn_agent');
  const child = await deps.start(plan);
  try {
    const turn = await child.run({ content: request.task, author: 'agent' }, signal);
    return {
      childId: child.id,
      mode: plan.descriptor.mode,
      ...defined({ label: plan.descriptor.label }),
      forked: plan.inheritedEventCount > 0,
      inheritedEventCount: plan.inheritedEventCount,
      turn,
    };
  } finally {
    child.release();
  }
}
