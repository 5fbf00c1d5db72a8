import type { SessionId } from '@strand/session';
import { z } from 'zod';
import { SubagentControlError } from '../errors.js';
import { listChildren } from '../listing/list-children.js';
import { listDescendants } from '../listing/list-descendants.js';
import type { SubagentListingContext } from '../listing/types.js';
import { renderAgentList } from './render-agent-list.js';
import { toolParameters } from './tool-parameters.js';

/** The arguments of `list_agents`: the one description, from which its JSON Schema is derived. */
export const listAgentsArgsSchema = z.strictObject({
  scope: z
    .enum(['children', 'descendants'])
    .describe('"children" for direct children only, "descendants" for the whole tree.'),
});
export type ListAgentsArgs = Readonly<z.output<typeof listAgentsArgsSchema>>;

/**
 * A model-visible tool as the agent runtime registers it: a JSON-schema contract (derived from
 * `argsSchema`), `parseArgs` for the model's untrusted arguments, and `execute` on parsed ones.
 */
export interface SubagentTool<Ctx, Args> {
  readonly name: string;
  readonly description: string;
  readonly argsSchema: z.ZodType<Args>;
  readonly parameters: Readonly<Record<string, unknown>>;
  /** Validates the model's arguments with `argsSchema`, or throws `SUBAGENT_CONTROL_INVALID_ARGUMENTS`. */
  parseArgs(args: unknown): Args;
  /** Runs on arguments `parseArgs` returned (they are not parsed again) and returns the text the model sees. */
  execute(ctx: Ctx, sessionId: SessionId, args: Args, signal?: AbortSignal): Promise<string>;
}

export const LIST_AGENTS_TOOL_NAME = 'list_agents';

function parseListAgentsArgs(args: unknown): ListAgentsArgs {
  const parsed = listAgentsArgsSchema.safeParse(args);
  if (parsed.success) return parsed.data;
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
  argsSchema: listAgentsArgsSchema,
  parameters: Object.freeze(toolParameters(listAgentsArgsSchema)),
  parseArgs: parseListAgentsArgs,
  async execute(
    ctx: SubagentListingContext,
    sessionId: SessionId,
    { scope }: ListAgentsArgs,
    signal?: AbortSignal,
  ): Promise<string> {
    const rows =
      scope === 'children'
        ? await listChildren(ctx, sessionId, signal)
        : await listDescendants(ctx, sessionId, signal);
    return renderAgentList(rows, scope);
  },
});
