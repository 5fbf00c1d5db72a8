import { openTempStack, type TempStack } from '@strand/stack/testing';
import { afterEach, describe, expect, it } from 'vitest';
import type { McpPort } from '../ports.js';
import { startHost, type RunningHost } from '../server.js';
import type { ShareGrant, ShareGrantStore } from '../share/grant-store.js';
import { hashShareToken } from '../share/share-token.js';

const TOKEN = 'a-long-enough-secret-token';

let stack: TempStack | undefined;
let host: RunningHost | undefined;
afterEach(async () => {
  await host?.close();
  await stack?.close();
  host = undefined;
  stack = undefined;
});

/** What the fake port saw of one request: the address, and each probe's answer or stable code. */
type Seen = Record<string, unknown>;

/**
 * A port that, for each request, probes the caller the host hands it (reads pass; a command and
 * an interactive follow are refused with stable codes) and answers with what it saw.
 */
function probingPort(calls: Seen[]): McpPort {
  const codeOf = (error: unknown): unknown => (error as { code?: unknown }).code;
  return {
    async handle(_request, response, { caller, address }) {
      const seen: Seen = { address };
      seen.list = (await caller.call('session.list', {})).sessions.length;
      seen.prompt = await caller.call('session.prompt', { id: 's', text: 'hi' }).then(() => 'ran', codeOf);
      seen.interactive = await caller
        .call('session.follow', { id: 's', interactive: true })
        .then(() => 'followed', codeOf);
      seen.missing = await caller
        .call('session.page', { id: 'no-such-session', fromSeq: 0, limit: 1 })
        .then(() => 'paged', codeOf);
      calls.push(seen);
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(seen));
    },
  };
}

/** One grant, held in memory: enough for the host to tell a share token from the host's. */
function oneGrantStore(grant: ShareGrant): ShareGrantStore {
  return {
    add: () => Promise.reject(new Error('not in this test')),
    byTokenHash: (hash) => Promise.resolve(hash === grant.tokenHash ? grant : undefined),
    byId: (id) => Promise.resolve(id === grant.grantId ? grant : undefined),
    list: () => Promise.resolve([grant]),
    revoke: () => Promise.reject(new Error('not in this test')),
  };
}

async function serve(
  mcp: McpPort | undefined,
  shares?: ShareGrantStore,
  limits?: { maxInFlight: number },
): Promise<RunningHost> {
  stack = await openTempStack({ prefix: 'strand-mcp-route' });
  // The stack's index is no `SearchPort`; these tests search nothing.
  const { search: _search, ...services } = stack;
  host = await startHost({
    services: {
      ...services,
      ...(mcp === undefined ? {} : { mcp }),
      ...(shares === undefined ? {} : { shares }),
    },
    token: TOKEN,
    requireToken: true,
    ...(limits === undefined ? {} : { limits }),
  });
  return host;
}

const post = (url: string, headers: Record<string, string>): Promise<Response> =>
  fetch(`${url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: '{}',
  });

describe('/mcp on the host', () => {
  it("hands an allowed request to the MCP port with the host's address and a caller of its reads only", async () => {
    const calls: Seen[] = [];
    const running = await serve(probingPort(calls));
    const response = await post(running.url, { authorization: `Bearer ${TOKEN}` });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      address: running.url,
      list: 0,
      prompt: 'RPC_METHOD_NOT_FOUND',
      interactive: 'RPC_INVALID_PARAMS',
      missing: 'SESSION_QUERY_NOT_FOUND',
    });
    expect(calls).toHaveLength(1);
  });

  it('reads under a share token exactly what its grant allows (usage.summary is refused, as on /rpc)', async () => {
    const shareToken = 'a-share-token-for-this-test-only';
    const grant: ShareGrant = {
      grantId: 'sg_test',
      tokenHash: hashShareToken(shareToken),
      sessionId: 'granted-session',
      descendants: false,
      expiresAt: null,
      label: null,
      createdBy: 'web',
      createdAt: 0,
      revokedAt: null,
    };
    const usageCodes: unknown[] = [];
    const port: McpPort = {
      async handle(_request, response, { caller }) {
        usageCodes.push(
          await caller.call('usage.summary', {}).then(
            () => 'read',
            (error: unknown) => (error as { code?: unknown }).code,
          ),
        );
        response.writeHead(200).end('{}');
      },
    };
    const running = await serve(port, oneGrantStore(grant));
    expect((await post(running.url, { authorization: `Bearer ${TOKEN}` })).status).toBe(200);
    expect((await post(running.url, { authorization: `Bearer ${shareToken}` })).status).toBe(200);
    expect(usageCodes).toEqual(['read', 'HOST_SHARE_READ_ONLY']);
  });

  it('refuses without the token before the port sees anything', async () => {
    const calls: Seen[] = [];
    const running = await serve(probingPort(calls));
    const response = await post(running.url, {});
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: { data: { code: 'HOST_UNAUTHORIZED' } } });
    expect(calls).toEqual([]);
  });

  it('is 404 (never the web page) on a host without an MCP port', async () => {
    const running = await serve(undefined);
    const response = await post(running.url, { authorization: `Bearer ${TOKEN}` });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/json');
  });

  it("counts an address's requests in flight: one over the limit is 429 HOST_TOO_MANY_REQUESTS, a slot freed is taken again", async () => {
    // Requests the port holds until the test releases them; `entered` resolves as each arrives.
    const held: (() => void)[] = [];
    const arrivals: (() => void)[] = [];
    const arrived = (n: number): Promise<void> =>
      held.length >= n ? Promise.resolve() : new Promise((resolve) => arrivals.push(resolve));
    const port: McpPort = {
      handle: (_request, response) =>
        new Promise<void>((resolve) => {
          held.push(() => {
            response.writeHead(200).end('{}');
            resolve();
          });
          for (const wake of arrivals.splice(0)) wake();
        }),
    };
    const running = await serve(port, undefined, { maxInFlight: 2 });
    const auth = { authorization: `Bearer ${TOKEN}` };
    const first = post(running.url, auth);
    const second = post(running.url, auth);
    await arrived(1);
    await arrived(2);
    const refused = await post(running.url, auth);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ error: { data: { code: 'HOST_TOO_MANY_REQUESTS' } } });
    expect(held).toHaveLength(2);

    held[0]!();
    expect((await first).status).toBe(200);
    const third = post(running.url, auth);
    await arrived(3);
    held[1]!();
    held[2]!();
    expect((await second).status).toBe(200);
    expect((await third).status).toBe(200);
  });
});
