import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerListAgents } from './list-agents.js';
import { registerListSessions } from './list-sessions.js';
import { registerReadSession } from './read-session.js';
import type { StrandReader } from './reader.js';
import { registerSearchSessions } from './search-sessions.js';
import { registerSessionResources } from './session-resource.js';
import { registerUsageSummary } from './usage-summary.js';

export const MCP_SERVER_NAME = 'strand';

/** The read-only MCP server over Strand's corpus: four tools and the sessions as resources. */
export function createStrandMcpServer(read: StrandReader, version: string): McpServer {
  const server = new McpServer(
    { name: MCP_SERVER_NAME, version },
    {
      instructions:
        'Search and read every session Strand holds (its own and those imported from other agent harnesses: Claude Code, Codex, Gemini CLI and more). Read-only. Start with search_sessions or list_sessions, then read_session around a seq.',
    },
  );
  registerSearchSessions(server, read);
  registerListSessions(server, read);
  registerReadSession(server, read);
  registerListAgents(server, read);
  registerUsageSummary(server, read);
  registerSessionResources(server, read);
  return server;
}
