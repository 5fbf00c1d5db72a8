import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { KNOWN_HARNESSES, harnessNameSchema } from '@strand/session';
import { describeRow, matches } from './session-facts.js';
import type { StrandReader } from './reader.js';
import { textResult, toolCall } from './tool-result.js';

export const filterShape = {
  project: z
    .string()
    .min(1)
    .max(4096)
    .optional()
    .describe('only sessions whose working folder is this path or has this last folder name'),
  source: harnessNameSchema
    .optional()
    .describe(
      `only sessions from this harness (${KNOWN_HARNESSES.join(', ')} or another's name; strand = written by Strand itself)`,
    ),
};

export function registerListSessions(server: McpServer, read: StrandReader): void {
  server.registerTool(
    'list_sessions',
    {
      title: 'List Strand sessions',
      description:
        'Sessions Strand holds, most recently active first (last prompt, else creation): id, creation time, title, project (working folder) and where it came from (strand or the harness that wrote it; subagent or fork).',
      inputSchema: {
        ...filterShape,
        limit: z.number().int().min(1).max(500).optional().describe('at most this many rows (default 50)'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      toolCall(async () => {
        const limit = args.limit ?? 50;
        // Filters apply to the whole corpus, so the host is asked for every row (headers and hints only).
        const { sessions } = await read((c) => c.call('session.list', {}));
        const rows = sessions.filter((row) => matches(row, args));
        const shown = rows.slice(0, limit);
        if (shown.length === 0) return textResult('No sessions.');
        const more =
          rows.length > shown.length ? `\n(${rows.length - shown.length} more: raise limit to see them)` : '';
        return textResult(
          `${rows.length} session${rows.length === 1 ? '' : 's'}, most recently active first:\n${shown.map(describeRow).join('\n')}${more}`,
        );
      }),
  );
}
