import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { KNOWN_HARNESSES, harnessNameSchema, defined } from '@strand/session';
import type { SessionListRow } from '@strand/protocol';
import {
  describeRow,
  matches,
  projectListFilter,
  refusedParams,
  type SessionFilter,
} from './session-facts.js';
import type { StrandReader, WireCaller } from './reader.js';
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

/**
 * Host pages read to fill one answer: the host narrows by every filter, so one page is full but
 * for a session imported before headers carried their harness (`sourceOf`'s id prefixes), which
 * only this side can tell — the pages after it fill what it left out.
 */
const MAX_PAGES = 20;

export function registerListSessions(server: McpServer, read: StrandReader): RegisteredTool {
  return server.registerTool(
    'list_sessions',
    {
      title: 'List Strand sessions',
      description:
        'Sessions Strand holds, most recently active first (last prompt, else creation): id, creation time, title, project (working folder) and where it came from (strand or the harness that wrote it; subagent or fork). A page at a time: when more follow, the answer ends with the cursor for the next page.',
      inputSchema: {
        ...filterShape,
        limit: z.number().int().min(1).max(500).optional().describe('at most this many rows (default 50)'),
        cursor: z
          .string()
          .min(1)
          .max(2000)
          .optional()
          .describe('the next page: the cursor a previous answer ended with (same project and source)'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      toolCall(async () => {
        const { rows, nextCursor } = await read((c) => listPage(c, args, args.limit ?? 50));
        const more =
          nextCursor === undefined
            ? ''
            : `\n(more follow: call list_sessions with cursor ${JSON.stringify(nextCursor)} and the same project and source)`;
        if (rows.length === 0) return textResult(`No sessions.${more}`);
        return textResult(
          `${rows.length} session${rows.length === 1 ? '' : 's'}, most recently active first:\n${rows.map(describeRow).join('\n')}${more}`,
        );
      }),
  );
}

/**
 * One page of matching rows from the host's paged `session.list`, which narrows by harness and by
 * project (an exact folder, or a folder name as `projectName`) in its own query, so a page comes
 * back full and its cursor continues the same listing. The rows are checked here once more (a
 * legacy import's harness is known only by its id); each further page asks only for the rows
 * still missing, so the host's cursor after the last page read is exactly where this answer
 * stops and nothing is skipped, and after `MAX_PAGES` the answer ends with the cursor to go on from.
 */
async function listPage(
  c: WireCaller,
  filter: SessionFilter & { readonly cursor?: string | undefined },
  limit: number,
): Promise<{ rows: SessionListRow[]; nextCursor: string | undefined }> {
  const narrowed = { ...defined({ harness: filter.source }), ...projectListFilter(filter.project) };
  try {
    return await hostPages(c, narrowed, filter, limit);
  } catch (error) {
    // A host older than `projectName` refuses it on the first call (nothing was listed yet), and
    // issued the caller's cursor, if any, without it: list without it, `matches` keeps the project's rows.
    const { projectName, ...older } = narrowed;
    if (projectName === undefined || !refusedParams(error)) throw error;
    return hostPages(c, older, filter, limit);
  }
}

/** The host's pages under `narrowed` until `limit` rows match `filter` (or `MAX_PAGES` were read). */
async function hostPages(
  c: WireCaller,
  narrowed: { readonly cwd?: string; readonly projectName?: string; readonly harness?: string },
  filter: SessionFilter & { readonly cursor?: string | undefined },
  limit: number,
): Promise<{ rows: SessionListRow[]; nextCursor: string | undefined }> {
  const rows: SessionListRow[] = [];
  let cursor = filter.cursor;
  for (let page = 0; page < MAX_PAGES && rows.length < limit; page++) {
    const answer = await c.call('session.list', {
      ...narrowed,
      limit: limit - rows.length,
      ...defined({ cursor }),
    });
    rows.push(...answer.sessions.filter((row) => matches(row, filter)));
    cursor = answer.nextCursor;
    if (cursor === undefined) break;
  }
  return { rows, nextCursor: cursor };
}
