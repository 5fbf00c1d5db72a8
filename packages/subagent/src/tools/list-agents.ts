import type { SessionId } from '@strand/session';
import { SubagentControlError } from '../errors.js';
import { listChildren } from '../listing/list-children.js';
import { listDescendants } from '../listing/list-descendants.js';
import type { SubagentListingContext } from '../listing/types.js';
import { renderAgentList, type AgentListScope } from './render-agent-list.js';

export interface ListAgentsArgs {
  readonly scope: AgentListScope;
}

/** A model-visible tool as the agent runtime registers it: a JSON-schema contract plus `execute`. */
export interface SubagentTool<Ctx, Args> {
  readonly name: string;
  readonly description: string;
  readonly parameters: Readonly<Record<string, unknown>>;
  /** Validates `args` (model output is untrusted) and returns the text the model sees. */
  parseArgs(args: unknown): Args;
  execute(ctx: Ctx, sessionId: SessionId, args: unknown, signal?: AbortSignal): Promise<string>;
}

export const LIST_AGENTS_TOOL_NAME = 'list_agents';

function parseListAgentsArgs(args: unknown): ListAgentsArgs {
  if (typeof args === 'object' && args !== null && !Array.isArray(args)) {
    const { scope, ...rest } = args as Record<string, unknown>;
    if ((scope === 'children' || scope === 'descendants') && Object.keys(rest).length === 0) return { scope };
  }
  throw new SubagentControlError(
    'SUBAGENT_CONTROL_INVALID_ARGUMENTS',
    `${LIST_AGENTS_TOOL_NAME} takes exactly { "scope": "children" | "descendants" }, got ${JSON.stringify(args) ?? String(args)}`,
  );
}

/**
 * `list_agents`: lists the calling session's subagents — its direct children, or its whole
 * subtree — through the same listing the host uses. Reading never starts an agent.
 */
export const listAgentsTool: SubagentTool<SubagentListingContext, ListAgentsArgs> = Object.freeze({
  name: LIST_AGENTS_TOOL_NAME,
  description:
    'List the subagents of this session. scope "children" lists your direct children; "descendants" lists your whole subagent tree (children first, then their children, indented). ' +
    'Each agent shows its id, mode (one-shot or continuable), label, status (running or inactive) and whether it has children of its own; ' +
    'an agent whose record cannot be read shows a diagnostic instead.',
  parameters: Object.freeze({
    type: 'object',
    properties: {
      scope: {
        type: 'string',
        enum: ['children', 'descendants'],
        description: '"children" for direct children only, "descendants" for the whole tree.',
      },
    },
    required: ['scope'],
    additionalProperties: false,
  }),
  parseArgs: parseListAgentsArgs,
  async execute(
    ctx: SubagentListingContext,
    sessionId: SessionId,
    args: unknown,
    signal?: AbortSignal,
  ): Promise<string> {
    const { scope } = parseListAgentsArgs(args);
    const rows =
      scope === 'children'
        ? await listChildren(ctx, sessionId, signal)
        : await listDescendants(ctx, sessionId, signal);
    return renderAgentList(rows, scope);
  },
});
