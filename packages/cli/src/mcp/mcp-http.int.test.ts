import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODEX_PARENT, mcpCorpus, STRAND_TOOLS, toolText as text } from '../testing/mcp-corpus.js';
import { startServe, type StrandProcess } from '../testing/strand-process.js';

/**
 * `/mcp` of a real `strand serve` process (token required), driven by the MCP SDK's own
 * streamable HTTP client, over the demo corpus plus the Codex fixtures: the same tools as
 * `strand mcp` on stdio, reading through the host, behind the checks `/rpc` has.
 */
const TOKEN = `mcp-http-test-token-${process.pid}`;

let root: string;
let host: StrandProcess;
/** The host's address, `http://127.0.0.1:<port>`. */
let origin: string;
let client: Client;

async function connect(headers: Record<string, string>): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), { requestInit: { headers } });
  const mcp = new Client({ name: 'strand-mcp-http-test', version: '1.0.0' });
  await mcp.connect(transport);
  return mcp;
}

async function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** One raw POST to `/mcp` with exactly these headers (a fetch would set Host itself). */
function rawPost(
  headers: Record<string, string>,
): Promise<{ status: number; body: { error?: { data?: { code?: string } } } }> {
  const url = new URL(`${origin}/mcp`);
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: '/mcp',
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: text === '' ? {} : (JSON.parse(text) as never) }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'strand-mcp-http-'));
  const data = mcpCorpus(root, { demo: true });
  const served = await startServe(data, ['--token', TOKEN, '--require-token']);
  host = served.process;
  origin = new URL(served.url).origin;
  client = await connect({ authorization: `Bearer ${TOKEN}` });
}, 300_000);

afterAll(async () => {
  await client?.close();
  host?.kill('SIGINT');
  if (host !== undefined) expect(await host.exited).toBe(0);
  rmSync(root, { recursive: true, force: true });
});

describe('strand serve /mcp (the SDK streamable HTTP client, a real process)', () => {
  it('lists the same read-only tools as strand mcp on stdio', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(STRAND_TOOLS);
    for (const tool of tools) expect(tool.annotations?.readOnlyHint).toBe(true);
  });

  it("search_sessions narrows by source in the index and gives each hit the host's absolute address", async () => {
    const found = text(await call('search_sessions', { query: 'health', source: 'codex' }));
    expect(found).toContain(`${CODEX_PARENT}  "Add a health endpoint"  project="/home/dev/svc"  from=codex`);
    const hit = new RegExp(
      `^ {2}seq (\\d+): .*\\[health\\].*  <${origin}/sessions/${CODEX_PARENT}\\?seq=(\\d+)>$`,
      'm',
    );
    const match = hit.exec(found);
    expect(match, found).not.toBeNull();
    expect(match![2]).toBe(match![1]);
    expect(text(await call('search_sessions', { query: 'health', source: 'strand' }))).not.toContain(
      'codex-',
    );
  });

  it('read_session reads through the host, with seqs', async () => {
    const read = text(await call('read_session', { id: CODEX_PARENT, fromSeq: 0, toSeq: 5 }));
    expect(read.split('\n')[0]).toBe(`Session ${CODEX_PARENT} — "Add a health endpoint"`);
    expect(read).toMatch(/^\[0\] /m);
  });

  it('failures are tool errors with stable codes: an unknown id, arguments the schema refuses', async () => {
    const unknown = await call('read_session', { id: 'no-such-session' });
    expect(unknown.isError).toBe(true);
    expect(text(unknown)).toMatch(/^SESSION_QUERY_NOT_FOUND: /);
    const refused = await call('search_sessions', { query: 'health', limit: 0 });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(
      /^CLI_MCP_ARGUMENTS_INVALID: invalid arguments for search_sessions: limit /,
    );
    expect(refused.structuredContent).toMatchObject({ error: { code: 'CLI_MCP_ARGUMENTS_INVALID' } });
    const wrongType = await call('read_session', { id: 7 });
    expect(wrongType.structuredContent).toMatchObject({ error: { code: 'CLI_MCP_ARGUMENTS_INVALID' } });
  });

  it('is refused as /rpc is: no token, a wrong token, a foreign Origin, a foreign Host', async () => {
    const host = new URL(origin).host;
    const missing = await rawPost({ host });
    expect(missing.status).toBe(401);
    expect(missing.body.error?.data?.code).toBe('HOST_UNAUTHORIZED');
    const wrong = await rawPost({ host, authorization: 'Bearer not-the-token-at-all' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error?.data?.code).toBe('HOST_UNAUTHORIZED');
    const page = await rawPost({ host, authorization: `Bearer ${TOKEN}`, origin: 'https://evil.example' });
    expect(page.status).toBe(403);
    expect(page.body.error?.data?.code).toBe('HOST_ORIGIN_FORBIDDEN');
    const rebound = await rawPost({
      host: `evil.example:${new URL(origin).port}`,
      authorization: `Bearer ${TOKEN}`,
    });
    expect(rebound.status).toBe(403);
    expect(rebound.body.error?.data?.code).toBe('HOST_ORIGIN_FORBIDDEN');
    // The SDK client without the token fails to connect at all.
    await expect(connect({})).rejects.toThrow();
    // And the host's own page origin with the token is let through.
    const own = await rawPost({ host, authorization: `Bearer ${TOKEN}`, origin });
    expect(own.status).toBe(200);
  });

  it('is not the web page: a GET is the transport refusing a stream, not index.html', async () => {
    const response = await fetch(`${origin}/mcp`, {
      headers: { authorization: `Bearer ${TOKEN}`, accept: 'text/event-stream' },
    });
    expect(response.status).toBe(405);
    expect(response.headers.get('content-type') ?? '').not.toContain('text/html');
  });
});
