import type { ProjectionRegistry } from '@strand/projection';
import type { Session, SessionSeq } from '@strand/session';
import type { PromptOptions } from '../agent.js';
import { AgentError, isAgentError } from '../errors.js';
import type { Model, ModelResolver, ModelRoute } from '../model/model.js';
import type { TurnDeps } from '../turn/run-turn.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import type { SubagentRuntime } from '../tools/tool.js';
import type { LiveAgent, TurnPlanner } from './live-agent.js';
import type { TurnSetup } from './options.js';
import { presetOf, selectionOf, titleIfUntitled } from './session-facts.js';

/** What a turn is planned from: the host's choices, and where the turn reports. */
export interface TurnPlanning {
  readonly registry: ProjectionRegistry;
  readonly model: Model | ModelResolver;
  readonly tools: ToolRegistry | ((context: TurnSetup) => ToolRegistry);
  readonly instructions: string | ((context: TurnSetup) => string | undefined) | undefined;
  readonly maxSteps: number;
  /** The subagent runtime a turn's tools reach (`spawn_agent`, `send_message`). */
  readonly childRuntime: (agent: LiveAgent) => SubagentRuntime;
  /** A draft to everyone listening to the controller (the agent's own listeners hear it first). */
  readonly onDraft: (agent: LiveAgent, step: SessionSeq, text: string) => void;
  readonly reportError: (error: unknown) => void;
}

/**
 * The planner an agent calls when a turn starts. Decided once per turn, before it appends anything:
 * the model (the pinned route, else the `modelSelection` projection's), the tools and the
 * instructions (from the preset) serve every step of the turn, so a model or preset chosen mid-turn
 * applies from the next turn. A session whose model or preset this host does not have is refused
 * here (the resolver and the tools function throw the typed refusal), before its turn appends
 * anything. The rest is how the turn reports: drafts, tools to the subagent runtime, the title.
 */
export function turnPlanner(planning: TurnPlanning): TurnPlanner {
  return (agent, options) => {
    const session = agent.session;
    const setup = { header: session.header, preset: presetOf(planning.registry, session) };
    const model = modelFor(planning, session, options);
    return {
      tools: typeof planning.tools === 'function' ? planning.tools(setup) : planning.tools,
      instructions:
        typeof planning.instructions === 'function' ? planning.instructions(setup) : planning.instructions,
      model,
      session,
      maxSteps: planning.maxSteps,
      toolContext: (toolSignal) => ({ agent, signal: toolSignal, subagents: planning.childRuntime(agent) }),
      onDraft: (step, text) => {
        agent.emit({ kind: 'draft', step, text });
        planning.onDraft(agent, step, text);
      },
      reportError: planning.reportError,
      // Inside the turn, before its turn/end: a prompt sent on seeing turn/end finds the agent
      // idle, not busy writing the title.
      beforeEnd: (input) =>
        titleIfUntitled(planning.registry, session, input.content).catch(planning.reportError),
    } satisfies TurnDeps;
  };
}

function modelFor(planning: TurnPlanning, session: Session, options: PromptOptions): Model {
  try {
    return resolveModel(planning, session, options.model);
  } catch (error) {
    if (isAgentError(error)) throw error;
    throw new AgentError('AGENT_MODEL_FAILED', `no model for session ${session.id}: ${String(error)}`, {
      cause: error,
      sessionId: session.id,
    });
  }
}

function resolveModel(planning: TurnPlanning, session: Session, override: ModelRoute | undefined): Model {
  const model = planning.model;
  if (typeof model !== 'function') return model;
  return model({ header: session.header, selection: override ?? selectionOf(planning.registry, session) });
}
