import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerListAgents } from './list-agents.js';
import { registerListSessions } from './list-sessions.js';
import { registerReadSession } from './read-session.js';
import type { StrandReader } from './reader.js';
import { registerSearchSessions } from './search-sessions.js';
import { registerSessionResources } from './session-resource.js';
import { typedArgumentErrors } from './typed-arguments.js';
import { registerUsageSummary, type UsageTable } from './usage-summary.js';

export const MCP_SERVER_NAME = 'strand';

export interface StrandMcpOptions {
  readonly version: string;
  /** How `usage_summary` lays out its rows (the CLI's `strand usage` table). */
  readonly usageTable: UsageTable;
  /**
   * The host's own address (`http://127.0.0.1:4400`): hits carry absolute `/sessions/<id>?seq=N`
   * addresses. Undefined on stdio: the addresses are relative.
   */
  readonly address?: string | undefined;
}

/** The read-only MCP server over Strand's corpus: five tools and the sessions as resources. */
export function createStrandMcpServer(read: StrandReader, options: StrandMcpOptions): McpServer {
  const server = new McpServer(
    { name: MCP_SERVER_NAME, version: options.version },
    {
      instructions:
        'Search and read every session Strand holds (its own and those imported from other agent harnesses: Claude Code, Codex, Gemini CLI and more). Read-only. Start with search_sessions or list_sessions, then read_session around a seq.',
    },
  );
  const tools = new Map([
    ['search_sessions', registerSearchSessions(server, read, options.address)],
    ['list_sessions', registerListSessions(server, read)],
    ['read_session', registerReadSession(server, read)],
    ['list_agents', registerListAgents(server, read)],
    ['usage_summary', registerUsageSummary(server, read, options.usageTable)],
  ]);
  typedArgumentErrors(server, tools);
  registerSessionResources(server, read);
  return server;
}
