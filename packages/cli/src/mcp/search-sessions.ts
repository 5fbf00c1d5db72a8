import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { SearchResult, SessionListRow } from '@strand/protocol';
import { z } from 'zod';
import { highlight, oneLine } from '../output.js';
import { filterShape } from './list-sessions.js';
import type { StrandReader } from './reader.js';
import { matches, origin, titleOf, type SessionFilter } from './session-facts.js';
import { textResult, toolCall } from './tool-result.js';

/** Search pages read to fill one filtered answer: a filter that matches little stops here. */
const MAX_PAGES = 20;

export function registerSearchSessions(server: McpServer, read: StrandReader): void {
  server.registerTool(
    'search_sessions',
    {
      title: 'Search Strand sessions',
      description:
        'Literal full-text search over the messages of every session Strand holds. Returns sessions with their title and the matching snippets, each with its seq (read around it with read_session).',
      inputSchema: {
        query: z.string().min(1).max(1000).describe('text to find (literal words)'),
        ...filterShape,
        limit: z.number().int().min(1).max(50).optional().describe('at most this many sessions (default 10)'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      toolCall(async () => {
        const limit = args.limit ?? 10;
        const filter: SessionFilter = args;
        const { results, rows } = await read(async (c) => {
          const { sessions } = await c.call('session.list', {});
          const byId = new Map(sessions.map((row) => [row.id, row]));
          const kept: SearchResult[] = [];
          let cursor: string | undefined;
          for (let page = 0; page < MAX_PAGES && kept.length < limit; page++) {
            const answer = await c.call('session.search', {
              query: args.query,
              limit,
              ...(cursor === undefined ? {} : { cursor }),
            });
            for (const result of answer.results) {
              const row = byId.get(result.sessionId);
              if (kept.length < limit && (row === undefined ? noFilter(filter) : matches(row, filter)))
                kept.push(result);
            }
            cursor = answer.nextCursor;
            if (cursor === undefined) break;
          }
          return { results: kept, rows: byId };
        });
        if (results.length === 0) return textResult(`No matches for ${JSON.stringify(args.query)}.`);
        return textResult(
          results.map((result) => describeResult(result, rows.get(result.sessionId))).join('\n\n'),
        );
      }),
  );
}

function noFilter(filter: SessionFilter): boolean {
  return filter.project === undefined && filter.source === undefined;
}

function describeResult(result: SearchResult, row: SessionListRow | undefined): string {
  // The list row's title hint, else the one the search index read with the result.
  const title = (row === undefined ? undefined : titleOf(row)) ?? result.title;
  const lines = [
    `${result.sessionId}  ${title === undefined ? '(title unknown)' : title === null ? '(untitled)' : JSON.stringify(title)}${row === undefined ? '' : `  project=${row.header.cwd === undefined ? '?' : JSON.stringify(row.header.cwd)}  from=${origin(row)}`}`,
  ];
  // Matches are marked [like this] (the host's U+0002/U+0003 markers are no text an agent reads),
  // on one line per hit so a snippet's newlines cannot pass for another hit.
  for (const hit of result.hits)
    lines.push(`  seq ${hit.seq}: ${oneLine(highlight(hit.snippet, false), 240)}`);
  return lines.join('\n');
}
