/**
 * Browser tests (tier: e2e) of who may drive a host: a real headless Chromium against in-process
 * hosts serving the built UI. Everything stays on loopback: a second local port plays the
 * foreign web site, and Chromium's resolver maps `evil.example` to 127.0.0.1 to play a DNS
 * rebinding. The token flow runs on loopback through `requireToken`.
 */
import { createServer, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { startHost, type Refusal, type RunningHost } from '@strand/host';
import { openStrandRuntime, type StrandRuntime } from '@strand/runtime';
import { buildWebUi, openChromiumPage, requireChromium, waitConnectionState } from './testing/browser.js';

const TOKEN = 'e2e-token-0123456789abcdef';
const REBINDING_NAME = 'evil.example';

let tmp: string;
let runtime: StrandRuntime;
/** The default loopback host: no token, Origin and Host checks only. */
let open: RunningHost;
/** A host that requires its token (as off loopback). */
let guarded: RunningHost;
let foreign: Server;
let foreignPort: number;
const refusals: Refusal[] = [];
let context: BrowserContext;
let page: Page;

/** A page of another origin that tries to drive a host; it reports how the attempt ended. */
function foreignPage(rpcUrl: string): string {
  return `<!doctype html><title>foreign</title><script>
    const ws = new WebSocket(${JSON.stringify(rpcUrl)});
    ws.onopen = () => { document.title = 'opened'; };
    ws.onclose = (event) => { document.title = 'closed ' + event.code; };
  </script>`;
}

const waitConnection = (state: string): Promise<void> => waitConnectionState(page, state);

describe('who may drive a host, in Chromium', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    requireChromium();
    tmp = await mkdtemp(path.join(os.tmpdir(), 'strand-access-e2e-'));
    const webRoot = path.join(tmp, 'web');
    await buildWebUi(webRoot);
    runtime = await openStrandRuntime({ dataDir: path.join(tmp, 'data') });
    const onRefused = (refusal: Refusal): void => void refusals.push(refusal);
    open = await startHost({ services: runtime.services, webRoot, onRefused });
    guarded = await startHost({
      services: runtime.services,
      webRoot,
      token: TOKEN,
      requireToken: true,
      onRefused,
    });
    // The foreign site: whatever path is asked, a page that opens the host named in the query.
    foreign = createServer((request, response) => {
      const target = new URL(request.url ?? '/', 'http://x').searchParams.get('rpc') ?? '';
      response.writeHead(200, { 'content-type': 'text/html' }).end(foreignPage(target));
    });
    await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', resolve));
    foreignPort = (foreign.address() as AddressInfo).port;
    ({ context, page } = await openChromiumPage(path.join(tmp, 'profile'), {
      args: [
        // The rebinding: the attacker's name answers with the loopback address.
        `--host-resolver-rules=MAP ${REBINDING_NAME} 127.0.0.1`,
      ],
    }));
  }, 180_000);

  afterAll(async () => {
    await context?.close();
    await new Promise((resolve) => (foreign === undefined ? resolve(undefined) : foreign.close(resolve)));
    await guarded?.close();
    await open?.close();
    await runtime?.close();
    if (tmp !== undefined) await rm(tmp, { recursive: true, force: true });
  }, 60_000);

  it("the UI's own page connects", async () => {
    await page.goto(open.url);
    await waitConnection('open');
    expect(open.connections).toBe(1);
  });

  it('a page from another origin (another local port) cannot open /rpc: the host answers 403', async () => {
    refusals.length = 0;
    await page.goto(`http://127.0.0.1:${foreignPort}/?rpc=${encodeURIComponent(open.rpcUrl)}`);
    await page.waitForFunction(() => document.title.startsWith('closed'));
    expect(await page.title()).toBe('closed 1006'); // never opened
    expect(refusals).toEqual([
      expect.objectContaining({
        status: 403,
        code: 'HOST_ORIGIN_FORBIDDEN',
        upgrade: true,
        reason: expect.stringContaining(`http://127.0.0.1:${foreignPort}`),
      }),
    ]);
  });

  it('a DNS-rebinding page (Host: evil.example) gets neither the UI nor /rpc', async () => {
    refusals.length = 0;
    const response = await page.goto(`http://${REBINDING_NAME}:${open.port}/`);
    expect(response?.status()).toBe(403);
    // The attacker's own page, reaching the host under the attacker's name.
    const rebound = `ws://${REBINDING_NAME}:${open.port}/rpc`;
    await page.goto(`http://${REBINDING_NAME}:${foreignPort}/?rpc=${encodeURIComponent(rebound)}`);
    await page.waitForFunction(() => document.title.startsWith('closed'));
    expect(await page.title()).toBe('closed 1006');
    // The page (and whatever else Chromium fetched for it, such as /favicon.ico) and the upgrade.
    expect(refusals.every((r) => r.status === 403 && r.code === 'HOST_ORIGIN_FORBIDDEN')).toBe(true);
    expect(refusals.some((r) => !r.upgrade)).toBe(true);
    const upgrades = refusals.filter((r) => r.upgrade);
    expect(upgrades).toHaveLength(1);
    expect(upgrades[0]?.reason).toMatch(/Host/);
  });

  it('off loopback: ?token= becomes an HttpOnly SameSite=Strict cookie, leaves the address bar, and the UI connects', async () => {
    await page.goto(`${guarded.url}/?token=${TOKEN}`);
    await waitConnection('open');
    expect(new URL(page.url()).searchParams.has('token')).toBe(false);
    const cookies = await context.cookies(guarded.url);
    expect(cookies).toEqual([
      expect.objectContaining({
        name: `strand_token_${guarded.port}`,
        value: TOKEN,
        httpOnly: true,
        sameSite: 'Strict',
      }),
    ]);
    expect(await page.evaluate(() => document.cookie)).not.toContain(TOKEN);
    // A reload without the link still connects: the cookie carries the token.
    await page.goto(guarded.url);
    await waitConnection('open');
    // Another port of the same name is the same *site*: its page's upgrade carries the cookie,
    // and only the Origin check stops it (403, not 401).
    refusals.length = 0;
    await page.goto(`http://127.0.0.1:${foreignPort}/?rpc=${encodeURIComponent(guarded.rpcUrl)}`);
    await page.waitForFunction(() => document.title.startsWith('closed'));
    expect(await page.title()).toBe('closed 1006');
    expect(refusals).toEqual([expect.objectContaining({ status: 403, code: 'HOST_ORIGIN_FORBIDDEN' })]);
  });

  it('off loopback: a missing or wrong token is explained on the page instead of "connecting" forever', async () => {
    await context.clearCookies();
    await page.goto(guarded.url);
    await page.locator('[data-testid="access-problem"][data-problem="missing"]').waitFor();
    await page.goto(`${guarded.url}/?token=not-the-token`);
    await page.locator('[data-testid="access-problem"][data-problem="invalid"]').waitFor();
    expect(new URL(page.url()).searchParams.has('token')).toBe(false);
    expect(await page.getByTestId('connection-state').count()).toBe(0);
    await context.clearCookies();
  });

  it('on a host that needs no token, a ?token= in the URL is still dropped from the address bar', async () => {
    await page.goto(`${open.url}/?token=left-over`);
    await waitConnection('open');
    expect(new URL(page.url()).searchParams.has('token')).toBe(false);
  });
});
