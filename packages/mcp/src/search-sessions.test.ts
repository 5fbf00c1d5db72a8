import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { describeIssues, METHODS, StrandRpcError, type SearchResult } from '@strand/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import type { StrandReader, WireCaller } from './reader.js';
import { registerSearchSessions } from './search-sessions.js';

/**
 * `search_sessions` over a stub connection that answers `session.search` from a fixed list, each
 * result with the header facts the index filed its session under, and records every call: the
 * tool must answer from the search alone, neither listing the corpus nor following a session.
 */
const FACTS: Record<string, Partial<SearchResult>> = {
  'codex-1': { cwd: '/home/dev/svc', harness: 'codex' },
  'codex-2': { cwd: '/home/dev/svc', harness: 'codex', origin: 'subagent', parentSession: 'codex-1' },
  'own-1': { cwd: '/home/dev/web', harness: 'strand' },
  'fork-1': { harness: 'strand', forkedFrom: 'own-1' },
  // `old-1`: an older host's result, with no facts at all.
};
const RESULTS: SearchResult[] = ['codex-1', 'old-1', 'codex-2', 'own-1', 'fork-1'].map((sessionId) => ({
  sessionId,
  title: `about ${sessionId}`,
  hits: [{ seq: 3, snippet: 'the \u0002health\u0003 check' }],
  ...FACTS[sessionId],
}));

/** The last folder name, written here by splitting (not the host's helper). */
const folderName = (cwd: string | undefined) =>
  cwd
    ?.replace(/[/\\]+$/, '')
    .split(/[/\\]/)
    .at(-1);

let calls: { method: string; params: Record<string, unknown> }[];
let client: Client | undefined;

function stubConnection(): WireCaller {
  const call = (method: string, params: Record<string, unknown>): Promise<unknown> => {
    calls.push({ method, params });
    switch (method) {
      case 'session.search': {
        const harness = params.harness as string | undefined;
        const cwd = params.cwd as string | undefined;
        const name = params.projectName as string | undefined;
        // The index narrows by its facets; a session filed under none matches no filter.
        const results = RESULTS.filter(
          (r) =>
            (harness === undefined || r.harness === harness) &&
            (cwd === undefined || r.cwd === cwd) &&
            (name === undefined || folderName(r.cwd) === name),
        );
        return Promise.resolve({ results });
      }
      default:
        return Promise.reject(new Error(`unexpected call ${method}`));
    }
  };
  return { call } as unknown as WireCaller;
}

async function search(args: Record<string, unknown>, base?: string): Promise<string> {
  const server = new McpServer({ name: 'strand-test', version: '0.0.0' });
  const read: StrandReader = (fn) => fn(stubConnection());
  registerSearchSessions(server, read, base);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  client = new Client({ name: 'test', version: '0.0.0' });
  await client.connect(clientSide);
  const result = (await client.callTool({ name: 'search_sessions', arguments: args })) as CallToolResult;
  const first = result.content[0];
  if (first?.type !== 'text') throw new Error('expected text');
  return first.text;
}

afterEach(async () => {
  await client?.close();
  client = undefined;
});

describe('search_sessions from the search alone', () => {
  const methods = (): string[] => calls.map((c) => c.method);

  it('describes each hit from the facts its result carries, calling nothing but session.search', async () => {
    calls = [];
    const text = await search({ query: 'health' });
    expect(methods().filter((m) => m === 'session.follow')).toHaveLength(0);
    expect(methods().filter((m) => m === 'session.list')).toHaveLength(0);
    expect(methods()).toEqual(['session.search']);
    expect(text).toContain(
      'codex-1  "about codex-1"  project="/home/dev/svc"  from=codex\n  seq 3: the [health] check',
    );
    expect(text).toContain(
      'codex-2  "about codex-2"  project="/home/dev/svc"  from=codex (subagent of codex-1)',
    );
    expect(text).toContain('own-1  "about own-1"  project="/home/dev/web"  from=strand');
    expect(text).toContain('fork-1  "about fork-1"  project=?  from=strand (fork of own-1)');
    // An older host's result (no facts) is shown without them, never looked up.
    expect(text).toContain('old-1  "about old-1"\n');
  });

  it("gives each hit its web address: relative without the host's address, absolute with it", async () => {
    calls = [];
    expect(await search({ query: 'health', source: 'codex', limit: 1 })).toContain(
      '  seq 3: the [health] check  </sessions/codex-1?seq=3>',
    );
    await client?.close();
    expect(await search({ query: 'health', source: 'codex', limit: 1 }, 'http://127.0.0.1:4400')).toContain(
      '  seq 3: the [health] check  <http://127.0.0.1:4400/sessions/codex-1?seq=3>',
    );
  });

  it('narrows by harness, folder path and folder name in the index', async () => {
    calls = [];
    const bySource = await search({ query: 'health', source: 'codex' });
    expect(calls.find((c) => c.method === 'session.search')?.params).toMatchObject({ harness: 'codex' });
    expect(bySource).not.toContain('own-1');
    expect(bySource).not.toContain('old-1');
    calls = [];
    const byPath = await search({ query: 'health', project: '/home/dev/web/' });
    expect(calls.find((c) => c.method === 'session.search')?.params).toMatchObject({ cwd: '/home/dev/web' });
    expect(byPath.split('\n\n').map((block) => block.split('  ')[0])).toEqual(['own-1']);
    calls = [];
    const byName = await search({ query: 'health', project: 'svc', limit: 2 });
    expect(calls.find((c) => c.method === 'session.search')?.params).toMatchObject({ projectName: 'svc' });
    expect(calls.find((c) => c.method === 'session.search')?.params).not.toHaveProperty('cwd');
    expect(byName.split('\n\n').map((block) => block.split('  ')[0])).toEqual(['codex-1', 'codex-2']);
    expect(methods()).toEqual(['session.search']);
  });
});

/*
 * A project given as a folder name over a paging host whose hits are mostly in other projects:
 * the name goes to the index's query (`projectName`), so the first page is the whole answer. The
 * stub host checks params against the protocol's `session.search` schema — this build's, or an
 * older host's without `projectName` (strict: it refuses the field) — and pages by `limit`.
 */
const PROJECT_CWDS = [
  '/home/dev/strand',
  '/srv/strand/',
  'C:\\src\\strand',
  '/home/dev/web',
  '/home/dev/api',
];
const NEW_PARAMS = METHODS['session.search'].params;
const OLD_PARAMS = NEW_PARAMS.omit({ projectName: true });

function pagingHost(
  corpus: readonly SearchResult[],
  params: typeof NEW_PARAMS | typeof OLD_PARAMS,
  seen: Record<string, unknown>[],
): WireCaller {
  const call = (method: string, raw: Record<string, unknown>): Promise<unknown> => {
    if (method !== 'session.search') return Promise.reject(new Error(`unexpected call ${method}`));
    seen.push(raw);
    const parsed = params.safeParse(raw);
    if (!parsed.success)
      return Promise.reject(
        new StrandRpcError(
          'RPC_INVALID_PARAMS',
          -32602,
          `invalid params: ${describeIssues(parsed.error, 'params')}`,
        ),
      );
    const name = raw.projectName as string | undefined;
    const matching = corpus.filter((r) => name === undefined || folderName(r.cwd) === name);
    const from = raw.cursor === undefined ? 0 : Number(raw.cursor);
    const results = matching.slice(from, from + (raw.limit as number));
    const next = from + results.length;
    return Promise.resolve({ results, ...(next < matching.length ? { nextCursor: String(next) } : {}) });
  };
  return { call } as unknown as WireCaller;
}

async function searchIds(host: WireCaller, args: Record<string, unknown>): Promise<string[]> {
  const server = new McpServer({ name: 'strand-test', version: '0.0.0' });
  registerSearchSessions(server, (fn) => fn(host));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const mcp = new Client({ name: 'test', version: '0.0.0' });
  await mcp.connect(clientSide);
  try {
    const result = (await mcp.callTool({ name: 'search_sessions', arguments: args })) as CallToolResult;
    const first = result.content[0];
    if (first?.type !== 'text') throw new Error('expected text');
    return [...first.text.matchAll(/^(s-\d{3}) /gm)].map((m) => m[1]!);
  } finally {
    await mcp.close();
  }
}

const corpusOf = (cwds: readonly (string | undefined)[]): SearchResult[] =>
  cwds.map((cwd, i) => ({
    sessionId: `s-${String(i).padStart(3, '0')}`,
    title: null,
    hits: [{ seq: 0, snippet: 'a \u0002plover\u0003' }],
    harness: 'strand',
    ...(cwd === undefined ? {} : { cwd }),
  }));

describe('search_sessions with a folder name', () => {
  const corpus = fc.array(fc.option(fc.constantFrom(...PROJECT_CWDS), { nil: undefined }), { maxLength: 40 });
  const name = fc.constantFrom('strand', 'web', 'api', 'nowhere');

  it('asks the index for the project by name: one call, a full answer, exactly the matching sessions (property)', async () => {
    await fc.assert(
      fc.asyncProperty(corpus, name, fc.integer({ min: 1, max: 10 }), async (cwds, project, limit) => {
        const results = corpusOf(cwds);
        const seen: Record<string, unknown>[] = [];
        const ids = await searchIds(pagingHost(results, NEW_PARAMS, seen), {
          query: 'plover',
          project,
          limit,
        });
        const expected = results.filter((r) => folderName(r.cwd) === project).slice(0, limit);
        expect(ids).toEqual(expected.map((r) => r.sessionId));
        expect(seen).toEqual([{ query: 'plover', limit, projectName: project }]);
      }),
      { numRuns: 30 },
    );
  });

  it('matches the name itself over the pages when an older host refuses projectName (property)', async () => {
    expect(OLD_PARAMS.safeParse({ query: 'plover', projectName: 'strand' }).success).toBe(false);
    await fc.assert(
      fc.asyncProperty(corpus, name, fc.integer({ min: 1, max: 10 }), async (cwds, project, limit) => {
        const results = corpusOf(cwds);
        const seen: Record<string, unknown>[] = [];
        const ids = await searchIds(pagingHost(results, OLD_PARAMS, seen), {
          query: 'plover',
          project,
          limit,
        });
        const expected = results.filter((r) => folderName(r.cwd) === project).slice(0, limit);
        expect(ids).toEqual(expected.map((r) => r.sessionId));
        // The refused call, then the older form of the same search: no projectName, no cwd.
        expect(seen[0]).toEqual({ query: 'plover', limit, projectName: project });
        expect(seen.slice(1).every((p) => !('projectName' in p) && !('cwd' in p))).toBe(true);
        expect(seen.length).toBeGreaterThan(1);
      }),
      { numRuns: 30 },
    );
  });
});
