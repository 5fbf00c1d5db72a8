import type { ChildHandle, ChildPlan, ContinueObserveOptions } from '../subagent-control.js';
import type { SessionObservation } from '@strand/query';
import type { MessageContent, SessionId } from '@strand/session';
import type { Agent } from '../agent.js';
import type { ToolSpec } from '../model/model.js';

/** What a tool returns; it becomes the `tool/result` event (`isError`/`code` on failure). */
export interface ToolOutput {
  readonly content: MessageContent;
  readonly isError?: boolean;
  /** A stable code (`SUBAGENT_CONTROL_DEPTH_LIMIT`…) for a failed call. */
  readonly code?: string;
}

/**
 * The capabilities spawn/continue need, granted by the controller to one calling agent for one
 * tool call. A tool cannot name another parent: `start`/`resume` act for `context.agent`.
 */
export interface SubagentRuntime {
  readonly maxDepth: number;
  newSessionId(): SessionId;
  now(): number;
  start(plan: ChildPlan): Promise<ChildHandle>;
  observe(id: SessionId, options: ContinueObserveOptions): Promise<SessionObservation>;
  /** Takes ownership of the observation (disposes it) and returns a lease on the child's agent. */
  resume(observation: SessionObservation): Promise<ChildHandle>;
}

export interface ToolContext {
  /** The calling agent: the parent of any child a tool creates or continues. */
  readonly agent: Agent;
  /** Aborted when the caller's turn is cancelled. */
  readonly signal: AbortSignal;
  readonly subagents: SubagentRuntime;
}

/**
 * A tool the model may call. `parse` validates the model's (untrusted) arguments and throws an
 * `AgentError` `AGENT_TOOL_ARGUMENTS_INVALID`; `run` may throw — the runtime turns any error into
 * an error result carrying the error's stable code. The runtime never throws into the model.
 */
export interface Tool<Args = unknown> extends ToolSpec {
  parse(raw: unknown): Args;
  run(args: Args, context: ToolContext): Promise<ToolOutput>;
}

/** Erases a tool's argument type for the registry (its own `parse` feeds its own `run`). */
export function defineTool<Args>(tool: Tool<Args>): Tool {
  // `run` is a method, so its parameter is checked bivariantly: the widening needs no cast.
  return tool;
}
