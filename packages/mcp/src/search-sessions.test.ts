import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { SearchResult } from '@strand/protocol';
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

let calls: { method: string; params: Record<string, unknown> }[];
let client: Client | undefined;

function stubConnection(): WireCaller {
  const call = (method: string, params: Record<string, unknown>): Promise<unknown> => {
    calls.push({ method, params });
    switch (method) {
      case 'session.search': {
        const harness = params.harness as string | undefined;
        const cwd = params.cwd as string | undefined;
        // The index narrows by its facets; a session filed under none matches no filter.
        const results = RESULTS.filter(
          (r) => (harness === undefined || r.harness === harness) && (cwd === undefined || r.cwd === cwd),
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

  it('narrows by harness and folder path in the index, and by folder name here', async () => {
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
    expect(calls.find((c) => c.method === 'session.search')?.params).not.toHaveProperty('cwd');
    expect(byName.split('\n\n').map((block) => block.split('  ')[0])).toEqual(['codex-1', 'codex-2']);
    expect(methods()).toEqual(['session.search']);
  });
});
