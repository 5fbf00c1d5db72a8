import { defined } from '@strand/session';
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { SearchResult } from '@strand/protocol';
import { z } from 'zod';
import { sessionAddress } from './addresses.js';
import { filterShape } from './list-sessions.js';
import type { StrandReader, WireCaller } from './reader.js';
import {
  inProject,
  originOf,
  projectListFilter,
  refusedParams,
  type SessionFilter,
} from './session-facts.js';
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
 * narrows by harness and by project (a folder path as `cwd`, a folder name as `projectName`) inside
 * its query, so its first page is a full answer; each result carries the header facts it filed its
 * session under (`cwd`, harness, lineage), which say where each session came from.
 *
 * A host older than `session.search`'s `projectName` refuses it (`RPC_INVALID_PARAMS`: its params
 * are strict) — `strand mcp --url` may talk to a host of another version. Then the name is matched
 * here against each result's `cwd`, over the index's pages, as before the host could.
 */
async function searchPage(
  c: WireCaller,
  query: string,
  filter: SessionFilter,
  limit: number,
): Promise<SearchResult[]> {
  const narrowed = { ...defined({ harness: filter.source }), ...projectListFilter(filter.project) };
  try {
    return await filteredPages(c, query, narrowed, limit, () => true);
  } catch (error) {
    const { projectName, ...older } = narrowed;
    if (projectName === undefined || !refusedParams(error)) throw error;
    // An older host sends each result's `cwd` when it has one; one that sends none matches nothing.
    return filteredPages(c, query, older, limit, (result) => inProject(result.cwd, projectName));
  }
}

/** The search's pages until `limit` results pass `keep` (or `MAX_PAGES` were read). */
async function filteredPages(
  c: WireCaller,
  query: string,
  narrowed: { readonly cwd?: string; readonly projectName?: string; readonly harness?: string },
  limit: number,
  keep: (result: SearchResult) => boolean,
): Promise<SearchResult[]> {
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
      if (keep(result)) kept.push(result);
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
