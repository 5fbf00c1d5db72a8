import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { StrandConnection } from '@strand/client';
import type { SearchResult, WireSessionHeader } from '@strand/protocol';
import { z } from 'zod';
import { highlight, oneLine } from '../output.js';
import { filterShape } from './list-sessions.js';
import type { StrandReader } from './reader.js';
import { isFolderPath, matches, origin, trimFolder, type SessionFilter } from './session-facts.js';
import { codeOf, textResult, toolCall } from './tool-result.js';

/** Search pages read to fill one filtered answer: a filter that matches little stops here. */
const MAX_PAGES = 20;

/** A search result with the header of its session; undefined when the session is gone since. */
interface DescribedResult {
  readonly result: SearchResult;
  readonly header: WireSessionHeader | undefined;
}

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
        const results = await read((c) => searchPage(c, args.query, args, args.limit ?? 10));
        if (results.length === 0) return textResult(`No matches for ${JSON.stringify(args.query)}.`);
        return textResult(results.map(describeResult).join('\n\n'));
      }),
  );
}

/**
 * Up to `limit` matching sessions, each with its header, without listing the corpus: the index
 * narrows by harness and by a project given as a folder path inside its query; only the hit
 * sessions' headers are read (a non-interactive follow, as `read_session` opens one), for a
 * project given as a folder name (matched here) and to say where each came from.
 */
async function searchPage(
  c: StrandConnection,
  query: string,
  filter: SessionFilter,
  limit: number,
): Promise<DescribedResult[]> {
  const narrowed = {
    ...(filter.source === undefined ? {} : { harness: filter.source }),
    ...(filter.project !== undefined && isFolderPath(filter.project)
      ? { cwd: trimFolder(filter.project) }
      : {}),
  };
  const kept: DescribedResult[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES && kept.length < limit; page++) {
    const answer = await c.call('session.search', {
      query,
      limit,
      ...narrowed,
      ...(cursor === undefined ? {} : { cursor }),
    });
    for (const result of answer.results) {
      if (kept.length >= limit) break;
      const header = await headerOf(c, result.sessionId);
      // The index narrowed by harness and folder path; a folder name is matched here. A session
      // gone since the index read it is kept only when nothing narrows (as it was found).
      const keep =
        header === undefined
          ? filter.project === undefined && filter.source === undefined
          : matches({ id: result.sessionId, header }, filter);
      if (keep) kept.push({ result, header });
    }
    cursor = answer.nextCursor;
    if (cursor === undefined) break;
  }
  return kept;
}

/** The header of one session: a non-interactive follow's snapshot with no events, closed at once. */
async function headerOf(c: StrandConnection, id: string): Promise<WireSessionHeader | undefined> {
  try {
    const snapshot = await c.call('session.follow', { id, window: 0 });
    await c.call('session.unfollow', { followId: snapshot.followId });
    return snapshot.header;
  } catch (error) {
    if (codeOf(error).endsWith('NOT_FOUND')) return undefined;
    throw error;
  }
}

function describeResult({ result, header }: DescribedResult): string {
  // The title the search index read with the result (its current label).
  const title = result.title;
  const facts =
    header === undefined
      ? ''
      : `  project=${header.cwd === undefined ? '?' : JSON.stringify(header.cwd)}  from=${origin({ id: result.sessionId, header })}`;
  const lines = [`${result.sessionId}  ${title === null ? '(untitled)' : JSON.stringify(title)}${facts}`];
  // Matches are marked [like this] (the host's U+0002/U+0003 markers are no text an agent reads),
  // on one line per hit so a snippet's newlines cannot pass for another hit.
  for (const hit of result.hits)
    lines.push(`  seq ${hit.seq}: ${oneLine(highlight(hit.snippet, false), 240)}`);
  return lines.join('\n');
}
