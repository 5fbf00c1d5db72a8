import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { renderAgentList } from '@strand/subagent';
import { z } from 'zod';
import type { StrandReader } from './reader.js';
import { textResult, toolCall } from './tool-result.js';

export function registerListAgents(server: McpServer, read: StrandReader): RegisteredTool {
  return server.registerTool(
    'list_agents',
    {
      title: "List a session's subagents",
      description:
        "A session's subagents, one row each, exactly as the list_agents agent tool shows them (id, mode, label, status). Read a child with read_session.",
      inputSchema: {
        id: z.string().min(1).max(512).describe('parent session id'),
        descendants: z.boolean().optional().describe('the whole tree, not just direct children'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      toolCall(async () => {
        const scope = args.descendants === true ? 'descendants' : 'children';
        const { rows } = await read(async (c) => {
          // A listing of an unknown parent is empty; an agent asking about a wrong id must hear so.
          await c.call('session.page', { id: args.id, fromSeq: 0, limit: 1 });
          return c.call('subagent.list', { id: args.id, scope });
        });
        // The wire rows are the listing contract's shape with string ids; the renderer wants the branded ones.
        return textResult(renderAgentList(rows as Parameters<typeof renderAgentList>[0], scope));
      }),
  );
}
