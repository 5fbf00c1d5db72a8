import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { StrandRpcError, type SessionListRow } from '@strand/protocol';
import { SessionId } from '@strand/session';
import { describe, expect, it } from 'vitest';
import { registerListSessions } from './list-sessions.js';
import type { StrandReader, WireCaller } from './reader.js';

/*
 * `list_sessions` with a project given as a folder name: the name goes to the host's query
 * (`projectName`), so every answer is a full page and its cursor continues the same listing. The
 * stub host pages a fixed corpus by offset and refuses to match folder names on its own terms
 * only through `projectName` — a tool that filtered on its side would come back short.
 */

const CWDS = ['/home/dev/strand', '/home/dev/strand/', 'C:\\src\\strand', '/home/dev/web', '/srv/strand-2'];

function corpusOf(cwds: readonly (string | undefined)[]): SessionListRow[] {
  return cwds.map((cwd, i) => {
    const id = `s-${String(i).padStart(3, '0')}`;
    return {
      id,
      header: {
        version: 1,
        id: SessionId(id),
        createdAt: 1_700_000_000_000 - i * 60_000,
        isSeeded: false,
        ...(cwd === undefined ? {} : { cwd }),
      },
      live: false,
      busy: false,
    };
  });
}

/** The last folder name, written here by splitting (not the host's helper). */
const folderName = (cwd: string | undefined) =>
  cwd
    ?.replace(/[/\\]+$/, '')
    .split(/[/\\]/)
    .at(-1);

/**
 * Pages `corpus` by offset; `older`: a host before `projectName`, whose strict params refuse it
 * (`RPC_INVALID_PARAMS`, as the protocol's schema would) — a refused call is not recorded.
 */
function stubHost(
  corpus: readonly SessionListRow[],
  calls: Record<string, unknown>[],
  older = false,
): WireCaller {
  const call = (method: string, params: Record<string, unknown>): Promise<unknown> => {
    if (method !== 'session.list') return Promise.reject(new Error(`unexpected call ${method}`));
    if (older && 'projectName' in params)
      return Promise.reject(
        new StrandRpcError(
          'RPC_INVALID_PARAMS',
          -32602,
          'invalid params: params: unrecognized key "projectName"',
        ),
      );
    calls.push(params);
    const name = params.projectName as string | undefined;
    const matching = corpus.filter((row) => name === undefined || folderName(row.header.cwd) === name);
    const from = params.cursor === undefined ? 0 : Number(params.cursor);
    const limit = params.limit as number;
    const sessions = matching.slice(from, from + limit);
    const next = from + sessions.length;
    return Promise.resolve({ sessions, ...(next < matching.length ? { nextCursor: String(next) } : {}) });
  };
  return { call } as unknown as WireCaller;
}

async function connect(corpus: readonly SessionListRow[], calls: Record<string, unknown>[], older = false) {
  const server = new McpServer({ name: 'strand-test', version: '0.0.0' });
  const read: StrandReader = (fn) => fn(stubHost(corpus, calls, older));
  registerListSessions(server, read);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test', version: '0.0.0' });
  await client.connect(clientSide);
  const list = async (args: Record<string, unknown>) => {
    const result = (await client.callTool({ name: 'list_sessions', arguments: args })) as CallToolResult;
    const first = result.content[0];
    if (first?.type !== 'text') throw new Error('expected text');
    const ids = [...first.text.matchAll(/^(s-\d{3}) /gm)].map((m) => m[1]!);
    const cursor = /with cursor ("[^"]*")/.exec(first.text)?.[1];
    return { ids, cursor: cursor === undefined ? undefined : (JSON.parse(cursor) as string) };
  };
  return { list, close: () => client.close() };
}

describe('list_sessions with a folder name', () => {
  it.each([
    ['this build', false],
    ['an older host, which refuses projectName', true],
  ])(
    'pages through exactly the sessions of that folder name, full pages, in order, each once (%s)',
    async (_, older) => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.option(fc.constantFrom(...CWDS), { nil: undefined }), { maxLength: 40 }),
          fc.constantFrom('strand', 'web', 'strand-2', 'nowhere'),
          fc.integer({ min: 1, max: 7 }),
          async (cwds, project, limit) => {
            const corpus = corpusOf(cwds);
            const calls: Record<string, unknown>[] = [];
            const t = await connect(corpus, calls, older);
            try {
              const listed: string[] = [];
              let cursor: string | undefined;
              for (let page = 0; page <= corpus.length; page++) {
                const answer = await t.list({ project, limit, ...(cursor === undefined ? {} : { cursor }) });
                listed.push(...answer.ids);
                cursor = answer.cursor;
                if (cursor === undefined) break;
                // A page that says more follow is full.
                expect(answer.ids).toHaveLength(limit);
              }
              expect(cursor).toBeUndefined();
              expect(listed).toEqual(
                corpus.filter((row) => folderName(row.header.cwd) === project).map((r) => r.id),
              );
              // The name went to the host's query, every time (an older host: matched here, over
              // its unfiltered pages); no exact folder was asked for.
              for (const params of calls) {
                expect(params.projectName).toBe(older ? undefined : project);
                expect(params.cwd).toBeUndefined();
              }
            } finally {
              await t.close();
            }
          },
        ),
        { numRuns: 30 },
      );
    },
  );

  it('a path is still the exact folder (cwd), trailing separators dropped', async () => {
    const calls: Record<string, unknown>[] = [];
    const t = await connect(corpusOf(CWDS), calls);
    try {
      await t.list({ project: '/home/dev/strand/' });
      expect(calls).toEqual([{ cwd: '/home/dev/strand', limit: 50 }]);
    } finally {
      await t.close();
    }
  });
});
