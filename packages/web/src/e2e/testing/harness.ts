/**
 * The browser-test harness the transcript tests share: builds the UI with vite, writes a corpus,
 * starts an in-process host on it and a headless Chromium (Debian's, through playwright-core).
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { startHost, type RunningHost } from '@strand/host';
import { openJsonlPersistence, persistenceWriter, type SessionPersistence } from '@strand/persistence';
import { openStrandRuntime, type StrandRuntime } from '@strand/runtime';
import { Session, type SessionEventInput, type SessionHeader } from '@strand/session';
import { ARTIFACTS, buildWebUi, launchChromium, requireChromium, UI_TIMEOUT } from './browser.js';

export { ARTIFACTS, UI_TIMEOUT } from './browser.js';

export interface CorpusWriter {
  readonly persistence: SessionPersistence;
  /** The folder the host will serve (e.g. to place a hand-made or damaged log in `sessions/`). */
  readonly dataDir: string;
  write(header: SessionHeader, batches: Iterable<SessionEventInput[]>): Promise<Session>;
}

export interface BrowserHost {
  readonly page: Page;
  readonly context: BrowserContext;
  readonly host: RunningHost;
  readonly runtime: StrandRuntime;
  readonly dataDir: string;
  shot(name: string, target?: string): Promise<void>;
  close(): Promise<void>;
}

export async function startBrowserHost(options: {
  readonly corpus: (writer: CorpusWriter) => Promise<void>;
  readonly runtime?: Partial<Parameters<typeof openStrandRuntime>[0]>;
  readonly viewport?: { width: number; height: number };
}): Promise<BrowserHost> {
  requireChromium();
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'strand-web-e2e-'));
  const dataDir = path.join(tmp, 'data');
  const webRoot = path.join(tmp, 'web');
  await mkdir(ARTIFACTS, { recursive: true });
  // What `npm run build:web` ships (React's production build).
  await buildWebUi(webRoot, { production: true });
  const persistence = await openJsonlPersistence({ root: dataDir });
  await options.corpus({
    persistence,
    dataDir,
    async write(header, batches) {
      const { incarnation } = await persistence.create({ header });
      const session = new Session({ header, incarnation, writer: persistenceWriter(persistence, header.id) });
      for (const batch of batches) await session.append(batch);
      return session;
    },
  });
  await persistence.close();
  const runtime = await openStrandRuntime({ dataDir, ...options.runtime });
  const host = await startHost({ services: runtime.services, port: 0, webRoot });
  await runtime.searchReady;
  const context = await launchChromium(path.join(tmp, 'profile'), {
    viewport: options.viewport ?? { width: 1280, height: 900 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(UI_TIMEOUT);
  return {
    page,
    context,
    host,
    runtime,
    dataDir,
    async shot(name, target) {
      await page.screenshot({ path: target ?? path.join(ARTIFACTS, `${name}.png`) });
    },
    async close() {
      await context.close();
      await host.close();
      await runtime.close();
      await rm(tmp, { recursive: true, force: true });
    },
  };
}

/** Clicks a session in the list and waits until its view shows a first event. */
export async function openSession(page: Page, id: string): Promise<void> {
  await page.locator(`[data-testid="session-row"][data-session-id="${id}"]`).click();
  await page
    .locator(`[data-testid="session-view"][data-session-id="${id}"] [data-testid="event"]`)
    .first()
    .waitFor({ timeout: UI_TIMEOUT });
}
