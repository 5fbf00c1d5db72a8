import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { hostFixture, type HostFixture } from '../testing/host-fixture.js';
import { startTestHost } from '../testing/test-host.js';
import { FRAME_CEILING_CLOSE_CODE } from '@strand/host';

let f: HostFixture | undefined;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await f?.close();
  f = undefined;
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function frame(id: number, method: string, params: unknown): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method, params });
}

/** Opens a socket with raw upgrade headers and resolves once it is open or refused. */
function connectWith(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.once('open', () => {
      ws.close();
      resolve(101);
    });
    ws.once('unexpected-response', (_request, response) => {
      resolve(response.statusCode ?? 0);
      response.resume();
    });
    ws.once('error', reject);
  });
}

describe('frame size edges', () => {
  it('answers HOST_FRAME_TOO_LARGE up to the ws ceiling and closes with 1009 beyond it; others go on', async () => {
    f = await hostFixture({ limits: { maxFrameBytes: 1024, frameCeilingBytes: 8192 } });
    const a = await f.connect();
    const b = await f.connect();
    const justUnder = frame(1, 'session.list', { pad: 'x'.repeat(8000) });
    expect(Buffer.byteLength(justUnder)).toBeLessThanOrEqual(8192);
    // The refusal carries the request's id, read without parsing the frame, so a client can match it.
    const reply = await a.raw(justUnder, 1);
    expect(reply.id).toBe(1);
    expect(reply.error?.data.code).toBe('HOST_FRAME_TOO_LARGE');
    expect(reply.error?.message).toMatch(/exceeds 1024/);
    // A frame without a readable id is answered with id null, as JSON-RPC says.
    const anonymous = await a.raw(
      JSON.stringify({ jsonrpc: '2.0', method: 'session.list', params: { pad: 'x'.repeat(2000) } }),
    );
    expect(anonymous).toMatchObject({ id: null, error: { data: { code: 'HOST_FRAME_TOO_LARGE' } } });
    // A binary frame's refusal carries its id too.
    const binary = new Promise<unknown>((resolve) =>
      a.ws.once('message', (data) => resolve(JSON.parse((data as Buffer).toString('utf8')))),
    );
    a.ws.send(Buffer.from(frame(4, 'session.list', {})), { binary: true });
    expect(await binary).toMatchObject({ id: 4, error: { data: { code: 'RPC_INVALID_REQUEST' } } });
    // Still open after the typed error: the next request on the same socket is served.
    expect(await a.call('session.list')).toEqual({ sessions: [] });

    const closed = new Promise<number>((resolve) => a.ws.once('close', (code) => resolve(code)));
    a.ws.send(frame(2, 'session.list', { pad: 'x'.repeat(9000) }));
    expect(await closed).toBe(FRAME_CEILING_CLOSE_CODE);
    expect(await b.call('session.list')).toEqual({ sessions: [] });
  });
});

describe('params and ids at the edge', () => {
  it('refuses params: null (and arrays, numbers) like any other non-object; absent params mean {}', async () => {
    f = await hostFixture();
    const client = await f.connect();
    for (const params of [null, [], 5, 'x']) {
      const reply = await client.raw(frame(7, 'session.list', params), 7);
      expect(reply.error?.data.code, JSON.stringify(params)).toBe('RPC_INVALID_PARAMS');
    }
    const reply = await client.raw(JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'session.list' }), 8);
    expect(reply.result).toEqual({ sessions: [] });
  });

  it('an id the file backend cannot store is SESSION_ID_INVALID, on reads and commands alike', async () => {
    f = await hostFixture();
    const client = await f.connect();
    // Upper case escapes to three characters per letter: 67 of them pass the 200-character name limit.
    const unstorable = 'A'.repeat(67);
    for (const method of ['session.follow', 'session.page', 'subagent.list', 'session.cancel']) {
      const reply = await client.request(method, { id: unstorable });
      expect(reply.error?.data.code, method).toBe('SESSION_ID_INVALID');
      expect(reply.error?.message).toMatch(/too long to store/);
    }
    expect((await client.request('session.rename', { id: unstorable, title: 't' })).error?.data.code).toBe(
      'SESSION_ID_INVALID',
    );
    // Storable ids of the same length are ordinary: not found.
    expect((await client.request('session.follow', { id: 'a'.repeat(128) })).error?.data.code).toBe(
      'SESSION_QUERY_NOT_FOUND',
    );
    for (const bad of ['', 'a'.repeat(129), 'x\u0000y'])
      expect((await client.request('session.follow', { id: bad })).error?.data.code, bad).toBe(
        'SESSION_ID_INVALID',
      );
  });

  it('a NUL in a search query is SEARCH_INVALID_QUERY from the real index', async () => {
    const t = await startTestHost({ prefix: 'strand-edges' });
    cleanups.push(() => t.close());
    await t.runtime.searchReady;
    const client = await t.connect();
    expect(await client.call('session.search', { query: 'anything' })).toMatchObject({ results: [] });
    const reply = await client.request('session.search', { query: 'a\u0000b' });
    expect(reply.error?.data.code).toBe('SEARCH_INVALID_QUERY');
    expect(reply.error?.message).toMatch(/NUL/);
  });
});

describe('HTTP edges', () => {
  it('/health with a query string is still the health answer', async () => {
    f = await hostFixture();
    for (const suffix of ['', '?x=1', '?']) {
      const response = await fetch(`${f.host.url}/health${suffix}`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ ok: true, connections: 0 });
    }
  });

  it('accepts the Bearer scheme in any case, and nothing else in the Authorization header', async () => {
    const token = 'a-long-enough-secret-token';
    f = await hostFixture({ token });
    for (const scheme of ['Bearer', 'bearer', 'BEARER'])
      expect(await connectWith(f.host.rpcUrl, { authorization: `${scheme} ${token}` }), scheme).toBe(101);
    expect(await connectWith(f.host.rpcUrl, { authorization: `Basic ${token}` })).toBe(401);
    expect(await connectWith(f.host.rpcUrl, { authorization: `bearer wrong-${token}` })).toBe(401);
  });
});
