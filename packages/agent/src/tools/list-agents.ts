import { listAgentsTool, type ListAgentsArgs, type SubagentListingContext } from '@strand/subagent';
import { defineTool, type Tool } from './tool.js';

/**
 * `list_agents`, owned by the subagent package (`listAgentsTool`: schema, listing, rendering),
 * adapted to this package's tool shape. The caller is the agent running the tool; listing reads
 * never start an agent.
 */
export function listAgentsToolFor(listing: SubagentListingContext): Tool {
  return defineTool<ListAgentsArgs>({
    name: listAgentsTool.name,
    description: listAgentsTool.description,
    parameters: listAgentsTool.parameters as Tool['parameters'],
    // Parsed once, before the call starts; a refusal is an error result with the listing's own code.
    parse: (raw) => listAgentsTool.parseArgs(raw),
    run: async (args, context) => ({
      content: await listAgentsTool.execute(listing, context.agent.id, args, context.signal),
    }),
  });
}
