import {
  newSessionHeader,
  planFork,
  SessionLogOffset,
  type NewSessionHeader,
  type SessionEvent,
  type SessionEventInput,
  type SessionHeader,
  type SessionId,
  defined,
} from '@strand/session';
import { descriptorEvent, type SubagentDescriptor } from '../descriptor.js';
import { controlError } from './errors.js';
import { lastClosedTurnCut } from './fork-cut.js';

/** Children may be nested this deep below an ordinary (depth 0) session unless configured otherwise. */
export const DEFAULT_MAX_DELEGATION_DEPTH = 3;

export type SpawnMode = SubagentDescriptor['mode'];

export interface SpawnRequest {
  /** The child's first `user/message` (authored by `agent`). */
  readonly task: string;
  readonly mode: SpawnMode;
  /** Optional for one-shot, required for continuable. */
  readonly label?: string;
  /** Seed the child with the parent's closed turns instead of starting it empty. */
  readonly fork?: boolean;
}

/** What planning needs of the parent; a live `Session` satisfies it. */
export interface ParentView {
  readonly header: SessionHeader;
  readonly events: readonly SessionEvent[];
}

/** A child, decided but not yet created: the runtime creates it exactly as planned. */
export interface ChildPlan {
  readonly header: SessionHeader;
  /** The parent prefix the child is seeded with (empty for a fresh child). */
  readonly inheritedEvents: readonly SessionEvent[];
  readonly inheritedEventCount: SessionLogOffset;
  readonly descriptor: SubagentDescriptor;
  /**
   * The child's first own events, to be appended before anything else (and before the child is
   * attached, so no reader ever sees it without its identity): the `subagent/descriptor`.
   */
  readonly firstEvents: readonly SessionEventInput[];
}

export interface PlanChildOptions {
  readonly id: SessionId;
  readonly createdAt: number;
  readonly maxDepth: number;
}

/** A header's delegation depth; an ordinary session is depth 0. */
export function delegationDepthOf(header: SessionHeader): number {
  return header.delegationDepth ?? 0;
}

/**
 * Decides a child session (pure): validates the request, enforces the depth limit, builds the
 * header (`origin: 'subagent'`, `parentSession`, depth = parent's + 1), cuts a fork at the parent's
 * last closed-turn boundary, and writes the descriptor event with the one descriptor writer.
 */
export function planChild(parent: ParentView, request: SpawnRequest, options: PlanChildOptions): ChildPlan {
  const descriptor = descriptorFor(request);
  if (!Number.isSafeInteger(options.maxDepth) || options.maxDepth < 0) {
    throw controlError(
      'SUBAGENT_CONTROL_INVALID_ARGUMENTS',
      `max delegation depth must be a non-negative integer, got ${options.maxDepth}`,
    );
  }
  const depth = delegationDepthOf(parent.header) + 1;
  if (depth > options.maxDepth) {
    throw controlError(
      'SUBAGENT_CONTROL_DEPTH_LIMIT',
      `cannot spawn from session ${parent.header.id}: a child would be at delegation depth ${depth}, the limit is ${options.maxDepth}`,
      { sessionId: parent.header.id },
    );
  }
  const child: NewSessionHeader = {
    id: options.id,
    createdAt: options.createdAt,
    ...defined({ cwd: parent.header.cwd }),
    parentSession: parent.header.id,
    origin: 'subagent',
    delegationDepth: depth,
  };
  let firstEvents: SessionEventInput[];
  try {
    firstEvents = [descriptorEvent(descriptor)];
  } catch (error) {
    throw controlError(
      'SUBAGENT_CONTROL_INVALID_ARGUMENTS',
      `the child's descriptor was refused: ${(error as Error).message}`,
      { cause: error },
    );
  }
  if (request.fork !== true) {
    return {
      header: newSessionHeader(child),
      inheritedEvents: [],
      inheritedEventCount: SessionLogOffset(0),
      descriptor,
      firstEvents,
    };
  }
  const { cut, closedTurns } = lastClosedTurnCut(parent.events);
  if (closedTurns === 0) {
    throw controlError(
      'SUBAGENT_CONTROL_FORK_EMPTY',
      `session ${parent.header.id} has no closed turn to fork a child from`,
      {
        sessionId: parent.header.id,
      },
    );
  }
  const plan = planFork(parent.header.id, parent.events, cut, child);
  return {
    header: plan.header,
    inheritedEvents: plan.events,
    inheritedEventCount: plan.inheritedEventCount,
    descriptor,
    firstEvents,
  };
}

function descriptorFor(request: SpawnRequest): SubagentDescriptor {
  if (typeof request.task !== 'string' || request.task.trim().length === 0) {
    throw controlError('SUBAGENT_CONTROL_INVALID_ARGUMENTS', 'a child needs a non-empty task');
  }
  const label = request.label;
  if (label !== undefined && (typeof label !== 'string' || label.length === 0)) {
    throw controlError('SUBAGENT_CONTROL_INVALID_ARGUMENTS', 'a label must be a non-empty string');
  }
  switch (request.mode) {
    case 'one-shot':
      return label === undefined ? { version: 2, mode: 'one-shot' } : { version: 2, mode: 'one-shot', label };
    case 'continuable':
      if (label === undefined) {
        throw controlError('SUBAGENT_CONTROL_LABEL_REQUIRED', 'a continuable child needs a label');
      }
      return { version: 2, mode: 'continuable', label };
    default:
      throw controlError(
        'SUBAGENT_CONTROL_INVALID_ARGUMENTS',
        `unknown mode ${JSON.stringify(request.mode satisfies never)}`,
      );
  }
}
