import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { StrandConnection } from '@strand/client';
import type { SearchResult } from '@strand/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import type { StrandReader } from './reader.js';
import { registerSearchSessions } from './search-sessions.js';

/**
 * `search_sessions` over a stub connection that answers `session.search` from a fixed list and
 * `session.follow` with each session's header, and records every call: the tool must answer
 * without listing the corpus.
 */
/** The header fields the tool reads, per session id (`gone-1` was deleted since it was indexed). */
interface StubHeader {
  readonly cwd: string;
  readonly source?: { readonly harness: string; readonly sourceId: string };
  readonly origin?: 'subagent';
  readonly parentSession?: string;
}
const HEADERS: Record<string, StubHeader> = {
  'codex-1': { cwd: '/home/dev/svc', source: { harness: 'codex', sourceId: 'r1' } },
  'codex-2': {
    cwd: '/home/dev/svc',
    source: { harness: 'codex', sourceId: 'r2' },
    origin: 'subagent',
    parentSession: 'codex-1',
  },
  'own-1': { cwd: '/home/dev/web' },
};
const RESULTS: SearchResult[] = ['codex-1', 'gone-1', 'codex-2', 'own-1'].map((sessionId) => ({
  sessionId,
  title: `about ${sessionId}`,
  hits: [{ seq: 3, snippet: 'the \u0002health\u0003 check' }],
}));

let calls: { method: string; params: Record<string, unknown> }[];
let client: Client | undefined;

function stubConnection(): StrandConnection {
  const call = (method: string, params: Record<string, unknown>): Promise<unknown> => {
    calls.push({ method, params });
    switch (method) {
      case 'session.search': {
        const harness = params.harness as string | undefined;
        const cwd = params.cwd as string | undefined;
        // The index narrows by its facets; a session it cannot read a header of is never filtered.
        const results = RESULTS.filter((r) => {
          const h = HEADERS[r.sessionId];
          if (h === undefined) return harness === undefined && cwd === undefined;
          return (
            (harness === undefined || (h.source?.harness ?? 'strand') === harness) &&
            (cwd === undefined || h.cwd === cwd)
          );
        });
        return Promise.resolve({ results });
      }
      case 'session.follow': {
        const id = params.id as string;
        const header = HEADERS[id];
        if (header === undefined)
          return Promise.reject(
            Object.assign(new Error(`no session ${id}`), { code: 'SESSION_QUERY_NOT_FOUND' }),
          );
        return Promise.resolve({ followId: `f-${id}`, header: { id, createdAt: 0, ...header } });
      }
      case 'session.unfollow':
        return Promise.resolve({ ok: true });
      default:
        return Promise.reject(new Error(`unexpected call ${method}`));
    }
  };
  return { call } as unknown as StrandConnection;
}

async function search(args: Record<string, unknown>): Promise<string> {
  const server = new McpServer({ name: 'strand-test', version: '0.0.0' });
  const read: StrandReader = (fn) => fn(stubConnection());
  registerSearchSessions(server, read);
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

describe('search_sessions without the session list', () => {
  it('describes each hit from its own header and never calls session.list', async () => {
    calls = [];
    const text = await search({ query: 'health' });
    expect(calls.map((c) => c.method)).not.toContain('session.list');
    expect(calls.filter((c) => c.method === 'session.search')).toHaveLength(1);
    // Only the hit sessions are looked up, and every follow is closed.
    expect(calls.filter((c) => c.method === 'session.follow').map((c) => c.params.id)).toEqual([
      'codex-1',
      'gone-1',
      'codex-2',
      'own-1',
    ]);
    expect(calls.filter((c) => c.method === 'session.unfollow')).toHaveLength(3);
    expect(text).toContain(
      'codex-1  "about codex-1"  project="/home/dev/svc"  from=codex\n  seq 3: the [health] check',
    );
    expect(text).toContain(
      'codex-2  "about codex-2"  project="/home/dev/svc"  from=codex (subagent of codex-1)',
    );
    expect(text).toContain('own-1  "about own-1"  project="/home/dev/web"  from=strand');
    // A session gone since it was indexed is still shown, without what only its header says.
    expect(text).toContain('gone-1  "about gone-1"\n');
  });

  it('narrows by harness and folder path in the index, and by folder name here', async () => {
    calls = [];
    const bySource = await search({ query: 'health', source: 'codex' });
    expect(calls.find((c) => c.method === 'session.search')?.params).toMatchObject({ harness: 'codex' });
    expect(bySource).not.toContain('own-1');
    expect(bySource).not.toContain('gone-1');
    calls = [];
    const byPath = await search({ query: 'health', project: '/home/dev/web/' });
    expect(calls.find((c) => c.method === 'session.search')?.params).toMatchObject({ cwd: '/home/dev/web' });
    expect(byPath.split('\n\n').map((block) => block.split('  ')[0])).toEqual(['own-1']);
    calls = [];
    const byName = await search({ query: 'health', project: 'svc', limit: 1 });
    expect(calls.find((c) => c.method === 'session.search')?.params).not.toHaveProperty('cwd');
    expect(byName.split('\n\n').map((block) => block.split('  ')[0])).toEqual(['codex-1']);
    expect(calls.map((c) => c.method)).not.toContain('session.list');
  });
});
