/**
 * Browser tests (tier: e2e) of share links (issue 42): the page a link opens shows one session,
 * read-only and live, and nothing else of the host; a revoked or expired link shows its own page;
 * the owner's Share dialog makes a link that opens that page and revokes it. The host requires its
 * token (shares are refused otherwise) and reads time from a manual clock, so an expiry is one
 * `advance`, never a wait. Two Chromium profiles: the owner's holds the host token's cookie, the
 * viewer's only share cookies (a browser holding both acts as the owner).
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { BrowserContext, Page } from 'playwright-core';
import { StrandConnection } from '@strand/client';
import { startHost, type RunningHost } from '@strand/host';
import { openStrandRuntime, type StrandRuntime } from '@strand/runtime';
import { newSessionHeader, SessionId } from '@strand/session';
import { descriptorEvent } from '@strand/subagent';
import { ManualClock, mockChatServer, pacedAnswer, type MockChatServer } from '@strand/test-support';
import { wcagViolations } from './testing/axe.js';
import { openChromiumPage } from './testing/browser.js';
import { prepareSite, UI_TIMEOUT, type SiteFolder } from './testing/harness.js';

const TOKEN = 'e2e-share-token-0123456789abcdef';
const SHARED = 'shared-1';
const OTHER = 'other-1';
const CHILD = 'shared-child';
const LOCAL = { provider: 'local', model: 'tiny-1' };
const BASE = Date.UTC(2026, 10, 1);
const HOUR_MS = 3600 * 1000;

let tmp: string;
let site: SiteFolder;
let runtime: StrandRuntime;
let host: RunningHost;
let server: MockChatServer;
let owner: StrandConnection;
const clock = new ManualClock();
/** The owner's prompt in the live test: each `next()` lets the next part of the reply out. */
const answer = pacedAnswer(['Watching **live**'], { input: 3, output: 3 }, { holdEnd: true });
let viewerContext: BrowserContext;
let viewer: Page;
let ownerContext: BrowserContext | undefined;

const sharedView = (page: Page) => page.locator(`[data-testid="session-view"][data-session-id="${SHARED}"]`);
const ended = (kind: 'expired' | 'revoked') =>
  viewer.locator(`[data-testid="share-ended"][data-problem="${kind}"]`);

/** A link made as `strand share` makes one (the host token's connection). */
function makeLink(options: { expiresInMs?: number | null; label?: string; descendants?: boolean } = {}) {
  return owner.call('share.create', {
    id: SHARED,
    descendants: options.descendants ?? false,
    createdBy: 'cli:e2e',
    expiresInMs: options.expiresInMs ?? null,
    ...(options.label === undefined ? {} : { label: options.label }),
  });
}

/** Opens a share link in the viewer and waits for the shared session's transcript. */
async function openLink(url: string): Promise<void> {
  await viewer.goto(url);
  await sharedView(viewer).locator('[data-testid="event"]').first().waitFor();
}

describe('share links in Chromium', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    server = await mockChatServer();
    server.handle(answer.handler);
    site = await prepareSite({
      prefix: 'strand-share-e2e-',
      production: true,
      corpus: async ({ write }) => {
        await write(newSessionHeader({ id: SessionId(SHARED), cwd: '/home/demo', createdAt: BASE }), [
          [{ type: 'session/title', data: { title: 'Shared work' } }],
          [
            { type: 'turn/start', data: {} },
            { type: 'user/message', data: { content: 'what is shared', author: 'human' } },
            { type: 'step/start', data: {} },
            { type: 'assistant/message', data: { content: 'Only this session.' } },
            { type: 'step/end', data: {} },
            { type: 'turn/end', data: { reason: 'completed' } },
          ],
        ]);
        const child = newSessionHeader({
          id: SessionId(CHILD),
          parentSession: SessionId(SHARED),
          origin: 'subagent',
          delegationDepth: 1,
          createdAt: BASE + 2,
          cwd: '/home/demo',
        });
        await write(child, [
          [descriptorEvent({ version: 2, mode: 'one-shot', label: 'reviewer' })],
          [{ type: 'user/message', data: { content: 'review the notes', author: 'agent' } }],
        ]);
        await write(newSessionHeader({ id: SessionId(OTHER), cwd: '/home/demo', createdAt: BASE + 1 }), [
          [{ type: 'session/title', data: { title: 'Private work' } }],
        ]);
      },
    });
    tmp = site.tmp;
    runtime = await openStrandRuntime({
      dataDir: site.dataDir,
      models: [{ ...LOCAL, baseUrl: server.baseUrl }],
      defaultModel: LOCAL,
    });
    host = await startHost({
      services: runtime.services,
      webRoot: site.webRoot,
      token: TOKEN,
      requireToken: true,
      now: () => BASE + clock.now(),
      shareTimers: clock,
      // A dead link's page may still try a reconnect or two before it learns why: those must not
      // lock this address (the owner's connection) out for the other tests.
      limits: { maxAuthFailures: 10_000 },
    });
    owner = new StrandConnection({ url: host.rpcUrl, WebSocket, token: TOKEN });
    ({ context: viewerContext, page: viewer } = await openChromiumPage(path.join(tmp, 'viewer'), {
      viewport: { width: 1280, height: 800 },
    }));
  }, 180_000);

  afterAll(async () => {
    answer.releaseAll();
    owner?.close();
    await ownerContext?.close();
    await viewerContext?.close();
    await host?.close();
    await runtime?.close();
    await server?.close();
    if (tmp !== undefined) await rm(tmp, { recursive: true, force: true });
  }, 60_000);

  it('opens only the shared session, read-only, and follows it live (drafts too) as the owner prompts', async () => {
    const link = await makeLink();
    expect(link.url).toBe(`${host.url}/share/${link.shareToken}`);
    await openLink(link.url);
    // The token left the address bar for its cookie.
    expect(new URL(viewer.url()).pathname).toBe('/share');
    await viewer.getByTestId('share-badge').filter({ hasText: 'Shared · read-only' }).waitFor();
    await sharedView(viewer).getByText('Only this session.').waitFor();
    for (const absent of [
      'composer',
      'navbar',
      'nav-usage',
      'share-open',
      'continue-menu',
      'model-select',
      'preset-select',
      'view-cost',
      'aside',
    ])
      expect(await viewer.getByTestId(absent).count(), absent).toBe(0);
    expect(await viewer.getByRole('button', { name: 'New session' }).count()).toBe(0);
    expect(await viewer.getByRole('tree').count()).toBe(0);
    expect(await wcagViolations(viewer)).toEqual([]);

    await owner.call('session.prompt', { id: SHARED, text: 'keep going' });
    answer.next();
    await sharedView(viewer).getByTestId('draft').locator('strong', { hasText: 'live' }).waitFor();
    await sharedView(viewer).getByTestId('view-running').waitFor();
    answer.next();
    await sharedView(viewer)
      .locator('[data-testid="event"][data-type="assistant/message"]')
      .filter({ hasText: 'Watching live' })
      .waitFor();
    await sharedView(viewer).getByText('keep going').waitFor();
    await sharedView(viewer).getByTestId('view-idle').waitFor();

    // Another session is answered as if it did not exist.
    await viewer.goto(`${host.url}/sessions/${OTHER}`);
    await viewer.getByTestId('session-unknown').waitFor();
    expect(await viewer.getByText('Private work').count()).toBe(0);
  });

  it('shows the subagent panel and a child, read-only, only when the link includes subagents', async () => {
    const withChildren = await makeLink({ descendants: true });
    await openLink(withChildren.url);
    await viewer
      .locator(`[data-testid="tree-row"][data-session-id="${CHILD}"]`)
      .getByTestId('tree-open')
      .click();
    const childView = viewer.locator(`[data-testid="session-view"][data-session-id="${CHILD}"]`);
    await childView.getByText('review the notes').waitFor();
    await childView.getByTestId('share-badge').waitFor();
    expect(await viewer.getByTestId('composer').count()).toBe(0);

    const without = await makeLink();
    await openLink(without.url);
    expect(await viewer.getByTestId('aside').count()).toBe(0);
    await viewer.goto(`${host.url}/sessions/${CHILD}`);
    await viewer.getByTestId('session-unknown').waitFor();
  });

  it('turns into the revoked page when the owner revokes the link, and stays there on reload', async () => {
    const link = await makeLink({ label: 'to revoke' });
    await openLink(link.url);
    await owner.call('share.revoke', { grant: link.grantId });
    await ended('revoked').filter({ hasText: 'This link was revoked' }).waitFor();
    expect(await viewer.getByTestId('connection-state').count()).toBe(0);
    await viewer.reload();
    await ended('revoked').waitFor();
  });

  it('turns into the expired page when the grant expires while open, and stays there on reload', async () => {
    const link = await makeLink({ expiresInMs: HOUR_MS });
    await openLink(link.url);
    await viewer.locator('[data-testid="connection-state"][data-state="open"]').waitFor();
    clock.advance(HOUR_MS);
    await ended('expired').filter({ hasText: 'This link has expired' }).waitFor();
    await viewer.reload();
    await ended('expired').waitFor();
    expect(await wcagViolations(viewer)).toEqual([]);
  });

  it("the owner's Share dialog makes a link that opens the shared page, and revokes it", async () => {
    let page: Page;
    ({ context: ownerContext, page } = await openChromiumPage(path.join(tmp, 'owner'), {
      viewport: { width: 1280, height: 800 },
    }));
    await page.goto(`${host.url}/sessions/${SHARED}?token=${TOKEN}`);
    await sharedView(page).locator('[data-testid="event"]').first().waitFor();
    const dialog = page.getByRole('dialog', { name: 'Share a read-only link' });

    // Escape closes it; focus stays inside while it is open.
    await page.getByTestId('share-open').click();
    await dialog.waitFor();
    await dialog.getByTestId('share-none').or(dialog.getByTestId('share-grants')).first().waitFor();
    for (let i = 0; i < 12; i++) await page.keyboard.press('Tab');
    expect(await dialog.evaluate((node) => node.contains(document.activeElement))).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    await page.getByTestId('share-open').click();
    await dialog.getByTestId('share-label').fill('for review');
    await dialog.getByTestId('share-create').click();
    const url = await dialog.getByTestId('share-url').inputValue();
    expect(url).toMatch(new RegExp(`^${host.url}/share/[A-Za-z0-9_-]+$`));
    const row = dialog.locator('[data-testid="share-grant"]').filter({ hasText: 'for review' });
    await row.and(page.locator('[data-status="active"]')).waitFor();
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      expect(await wcagViolations(page, '[role="dialog"]'), scheme).toEqual([]);
    }

    await openLink(url);
    await viewer.getByTestId('share-badge').waitFor();
    await row.getByTestId('share-revoke').click();
    await row.and(page.locator('[data-status="revoked"]')).waitFor({ timeout: UI_TIMEOUT });
    await ended('revoked').waitFor();
  });

  it("shows the host's refusal in the Share dialog on a host that requires no token", async () => {
    // The same corpus served by a second host without a token: a link there would grant nothing
    // anyone who can reach it lacks, so the host refuses to make one and the dialog says why.
    const open = await startHost({ services: runtime.services, webRoot: site.webRoot });
    const { context, page } = await openChromiumPage(path.join(tmp, 'tokenless'), {
      viewport: { width: 1280, height: 800 },
    });
    try {
      await page.goto(`${open.url}/sessions/${SHARED}`);
      await sharedView(page).locator('[data-testid="event"]').first().waitFor();
      await page.getByTestId('share-open').click();
      const dialog = page.getByRole('dialog', { name: 'Share a read-only link' });
      await expect
        .poll(() => dialog.getByTestId('share-list-error').textContent(), { timeout: UI_TIMEOUT })
        .toMatch(/--require-token/);
      await dialog.getByTestId('share-create').click();
      const refusal = dialog.getByTestId('share-error');
      await refusal.waitFor();
      expect(await refusal.textContent()).toMatch(
        /anyone who can reach this host can already read everything/,
      );
      expect(await dialog.getByTestId('share-url').count()).toBe(0);
    } finally {
      await context.close();
      await open.close();
    }
  });
});
