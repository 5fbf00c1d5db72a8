import { defined } from '@strand/session';
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { SearchResult } from '@strand/protocol';
import { z } from 'zod';
import { sessionAddress } from './addresses.js';
import { filterShape } from './list-sessions.js';
import type { StrandReader, WireCaller } from './reader.js';
import { inProject, isFolderPath, originOf, trimFolder, type SessionFilter } from './session-facts.js';
import { bracketMatches, flatLine } from './text.js';
import { textResult, toolCall } from './tool-result.js';

/** Search pages read to fill one filtered answer: a filter that matches little stops here. */
const MAX_PAGES = 20;

/**
 * `base`: the host's address, for each hit's absolute `/sessions/<id>?seq=N`; undefined (stdio)
 * gives the relative path.
 */
export function registerSearchSessions(server: McpServer, read: StrandReader, base?: string): RegisteredTool {
  return server.registerTool(
    'search_sessions',
    {
      title: 'Search Strand sessions',
      description:
        'Literal full-text search over the messages of every session Strand holds. Returns sessions with their title and the matching snippets, each with its seq (read around it with read_session) and its address in the Strand web UI.',
      inputSchema: {
        query: z.string().min(1).max(1000).describe('text to find (literal words)'),
        ...filterShape,
        limit: z.number().int().min(1).max(50).optional().describe('at most this many sessions (default 10)'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      toolCall(async () => {
        const results = await read((c) => searchPage(c, args.query, args, args.limit ?? 10));
        if (results.length === 0) return textResult(`No matches for ${JSON.stringify(args.query)}.`);
        return textResult(results.map((result) => describeResult(result, base)).join('\n\n'));
      }),
  );
}

/**
 * Up to `limit` matching sessions, without listing the corpus or reading any session: the index
 * narrows by harness and by a project given as a folder path inside its query, and each result
 * carries the header facts it filed its session under (`cwd`, harness, lineage), which match a
 * project given as a folder name here and say where each session came from.
 */
async function searchPage(
  c: WireCaller,
  query: string,
  filter: SessionFilter,
  limit: number,
): Promise<SearchResult[]> {
  const narrowed = {
    ...defined({ harness: filter.source }),
    ...(filter.project !== undefined && isFolderPath(filter.project)
      ? { cwd: trimFolder(filter.project) }
      : {}),
  };
  const kept: SearchResult[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES && kept.length < limit; page++) {
    const answer = await c.call('session.search', {
      query,
      limit,
      ...narrowed,
      ...defined({ cursor }),
    });
    for (const result of answer.results) {
      if (kept.length >= limit) break;
      // The index narrowed by harness and folder path; a folder name is matched here, against the
      // `cwd` the index filed the session under (an older host sends none: nothing matches).
      if (filter.project === undefined || inProject(result.cwd, filter.project)) kept.push(result);
    }
    cursor = answer.nextCursor;
    if (cursor === undefined) break;
  }
  return kept;
}

function describeResult(result: SearchResult, base: string | undefined): string {
  // The title the search index read with the result (its current label).
  const title = result.title;
  // A host that files sessions under their facts always sends the harness; an older one sends no
  // facts, and the session is shown without them rather than read.
  const facts =
    result.harness === undefined
      ? ''
      : `  project=${result.cwd === undefined ? '?' : JSON.stringify(result.cwd)}  from=${originOf(result.harness, result)}`;
  const lines = [`${result.sessionId}  ${title === null ? '(untitled)' : JSON.stringify(title)}${facts}`];
  // Matches are marked [like this] (the host's U+0002/U+0003 markers are no text an agent reads),
  // on one line per hit so a snippet's newlines cannot pass for another hit; the address last.
  for (const hit of result.hits)
    lines.push(
      `  seq ${hit.seq}: ${flatLine(bracketMatches(hit.snippet), 240)}  <${sessionAddress(base, result.sessionId, hit.seq)}>`,
    );
  return lines.join('\n');
}
