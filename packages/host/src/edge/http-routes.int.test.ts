import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { rawGet, type HttpAnswer } from '@strand/test-support';
import { tokenCookieName, shareCookieName } from '../auth.js';
import { httpRoutes } from './http-routes.js';
import { accessPolicy } from './origin-check.js';
import { TokenGate } from './token-gate.js';
import { upgradeHandler } from './upgrade.js';

const INDEX = '<!doctype html><title>strand page</title>';
const TOKEN = 'a-long-enough-secret-token';

/** A plain GET with raw headers and a raw path (fetch would normalize both). */
const get = (port: number, rawPath: string, headers: Record<string, string> = {}): Promise<HttpAnswer> =>
  rawGet({ host: '127.0.0.1', port, path: rawPath }, headers);

function upgradeStatus(port: number, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/rpc`, { headers });
    ws.once('open', () => {
      ws.close();
      resolve(101);
    });
    ws.once('unexpected-response', (_request, response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    ws.once('error', reject);
  });
}

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

const OUTSIDE = 'outside the web folder';

/**
 * The host's real HTTP edge (routes and upgrade checks) over a web folder with a page and an
 * asset, and a file beside the folder that no request may reach.
 */
async function edge(token?: string): Promise<{ port: number; root: string }> {
  const parent = await mkdtemp(path.join(os.tmpdir(), 'strand-http-routes-'));
  await writeFile(path.join(parent, 'outside.txt'), OUTSIDE);
  const root = path.join(parent, 'web');
  await mkdir(root);
  await writeFile(path.join(root, 'index.html'), INDEX);
  await mkdir(path.join(root, 'assets'));
  await writeFile(path.join(root, 'assets', 'app.js'), 'console.log(1)');
  await writeFile(path.join(root, 'secret.txt'), 'not a page');
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const policy = accessPolicy('127.0.0.1', port, []);
  const gate = new TokenGate({
    token,
    maxFailures: 5,
    windowSeconds: 60,
    cookieName: tokenCookieName(port),
    shareCookieName: shareCookieName(port),
  });
  const wss = new WebSocketServer({ noServer: true });
  server.on(
    'request',
    httpRoutes({ policy, gate, webRoot: root, connections: () => 0, onRefused: undefined }),
  );
  server.on(
    'upgrade',
    upgradeHandler({
      policy,
      gate,
      onRefused: undefined,
      accept: (request, socket, head) => wss.handleUpgrade(request, socket, head, (ws) => ws.close()),
    }),
  );
  cleanup = async () => {
    wss.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await rm(parent, { recursive: true, force: true });
  };
  return { port, root };
}

describe('the web UI routes', () => {
  it('serves the page for /sessions/<encoded id>, with or without ?seq, whatever the id spells', async () => {
    const { port } = await edge();
    for (const id of ['plain', 'demo/long session#1', '../secret.txt', 'assets', '100%', 'ünï ✓']) {
      for (const suffix of ['', '?seq=42']) {
        const answer = await get(port, `/sessions/${encodeURIComponent(id)}${suffix}`);
        expect(answer.status, id).toBe(200);
        expect(answer.body, id).toBe(INDEX);
        expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(answer.headers['cache-control']).toBe('no-cache');
      }
    }
    // A route is never a file: not even one that exists under the same name.
    expect((await get(port, '/sessions/..%2Fsecret.txt')).body).toBe(INDEX);
    expect((await get(port, '/secret.txt')).body).toBe('not a page');
  });

  it('serves assets by their absolute path and answers a malformed %-escape with 400', async () => {
    const { port } = await edge();
    const asset = await get(port, '/assets/app.js');
    expect(asset.status).toBe(200);
    expect(asset.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(asset.headers['cache-control']).toBeUndefined();
    expect((await get(port, '/assets/%E0%A4%A')).status).toBe(400);
    // Inside a route the id is the page's to decode, so a bad escape there is still the page.
    expect((await get(port, '/sessions/%E0%A4%A')).body).toBe(INDEX);
  });

  it('never serves a file outside the web folder, however the path spells its way up', async () => {
    const { port } = await edge();
    const climbs = [
      '/../outside.txt',
      '/assets/../../outside.txt',
      '/%2e%2e/outside.txt',
      '/%2E%2E%2Foutside.txt',
      '/assets/..%2F..%2Foutside.txt',
      '/..%5Coutside.txt',
      '/assets/%2e%2e/%2e%2e/outside.txt',
      '//../outside.txt',
    ];
    for (const climb of climbs) {
      const answer = await get(port, climb);
      expect(answer.body, climb).not.toContain(OUTSIDE);
      expect([200, 400, 404], climb).toContain(answer.status);
      // A 200 is only ever the page (the single-page fallback), never a file from outside.
      if (answer.status === 200) expect(answer.body, climb).toBe(INDEX);
    }
  });

  it('answers a repeated request with 304 by its ETag, and an unknown file with 404', async () => {
    const { port } = await edge();
    const first = await get(port, '/assets/app.js');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"/);
    const again = await get(port, '/assets/app.js', { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
    expect((await get(port, '/assets/missing.js')).status).toBe(404);
  });

  it('refuses a deep link carrying a foreign Host (DNS rebinding), and a foreign Origin on /rpc', async () => {
    const { port } = await edge();
    const page = await get(port, '/sessions/abc?seq=3', { host: `evil.example:${port}` });
    expect(page.status).toBe(403);
    expect(page.body).not.toContain('strand page');
    expect(await upgradeStatus(port, { origin: 'http://evil.example' })).toBe(403);
    expect(await upgradeStatus(port, { origin: `http://127.0.0.1:${port}` })).toBe(101);
  });

  it('moves the token of a deep link into the cookie and keeps the path and the seq', async () => {
    const { port } = await edge(TOKEN);
    const id = encodeURIComponent('demo/long session#1');
    const answer = await get(port, `/sessions/${id}?token=${TOKEN}&seq=42`);
    expect(answer.status).toBe(303);
    expect(answer.headers.location).toBe(`/sessions/${id}?seq=42`);
    const cookie = String(answer.headers['set-cookie']);
    expect(cookie).toContain(`${tokenCookieName(port)}=${TOKEN}`);
    expect(cookie).toContain('HttpOnly');
    // The reload after the redirect (the cookie goes along) is the page itself.
    const reload = await get(port, `/sessions/${id}?seq=42`, { cookie: `${tokenCookieName(port)}=${TOKEN}` });
    expect(reload.status).toBe(200);
    expect(reload.body).toBe(INDEX);
    expect(await upgradeStatus(port, { cookie: `${tokenCookieName(port)}=${TOKEN}` })).toBe(101);
    expect(await upgradeStatus(port, {})).toBe(401);
  });
});
