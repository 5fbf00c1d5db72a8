import type { SubagentListingContext } from '@strand/subagent';
import { listAgentsToolFor } from './list-agents.js';
import { sendMessageTool } from './send-message.js';
import { spawnAgentTool } from './spawn-agent.js';
import { ToolRegistry } from './tool-registry.js';

/**
 * The subagent tools: `spawn_agent`, `send_message`, and `list_agents` when a listing context is
 * given (it needs the registry, store and query; the cache is optional).
 */
export function subagentTools(options: { listing?: SubagentListingContext } = {}): ToolRegistry {
  const tools = [spawnAgentTool, sendMessageTool];
  if (options.listing !== undefined) tools.push(listAgentsToolFor(options.listing));
  return new ToolRegistry(tools);
}
