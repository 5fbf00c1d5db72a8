/**
 * The browser-test harness the e2e tests share: builds the UI with vite, writes a corpus, starts
 * an in-process host on it and a headless Chromium (Debian's, through playwright-core). The
 * pieces (`prepareSite`, `writeCorpus`) serve the suites that run their own hosts.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { startHost, type RunningHost } from '@strand/host';
import { openJsonlPersistence, persistenceWriter, type SessionPersistence } from '@strand/persistence';
import { openStrandRuntime, type StrandRuntime } from '@strand/runtime';
import {
  newSessionHeader,
  Session,
  SessionId,
  type SessionEventInput,
  type SessionHeader,
} from '@strand/session';
import { ARTIFACTS, buildWebUi, openChromiumPage, requireChromium, UI_TIMEOUT } from './browser.js';

export { ARTIFACTS, UI_TIMEOUT } from './browser.js';

export interface CorpusWriter {
  readonly persistence: SessionPersistence;
  /** The folder the host will serve (e.g. to place a hand-made or damaged log in `sessions/`). */
  readonly dataDir: string;
  /** Creates the session and appends each batch in one append (a function: it may be destructured). */
  readonly write: (header: SessionHeader, batches: Iterable<SessionEventInput[]>) => Promise<Session>;
}

export interface BrowserHost {
  readonly page: Page;
  readonly context: BrowserContext;
  readonly host: RunningHost;
  readonly runtime: StrandRuntime;
  readonly dataDir: string;
  /** The built UI the host serves (removed by `close`). */
  readonly webRoot: string;
  shot(name: string, target?: string): Promise<void>;
  close(): Promise<void>;
}

/** A temp folder holding the built UI (`web/`) and a corpus written for the test (`data/`). */
export interface SiteFolder {
  readonly tmp: string;
  readonly dataDir: string;
  readonly webRoot: string;
}

/**
 * Checks for Chromium, makes the artifacts folder and a temp folder, builds the UI into it and
 * writes the corpus; a failure on the way removes the temp folder again.
 */
export async function prepareSite(options: {
  readonly prefix: string;
  readonly corpus: (writer: CorpusWriter) => Promise<void>;
  /** React's production build, what `npm run build:web` ships (see `buildWebUi`). */
  readonly production?: boolean;
}): Promise<SiteFolder> {
  requireChromium();
  const tmp = await mkdtemp(path.join(os.tmpdir(), options.prefix));
  try {
    const dataDir = path.join(tmp, 'data');
    const webRoot = path.join(tmp, 'web');
    await mkdir(ARTIFACTS, { recursive: true });
    await buildWebUi(webRoot, { production: options.production ?? false });
    await writeCorpus(dataDir, options.corpus);
    return { tmp, dataDir, webRoot };
  } catch (error) {
    await rm(tmp, { recursive: true, force: true });
    throw error;
  }
}

/** Writes sessions into a data folder through real JSONL persistence, closed before the host opens it. */
export async function writeCorpus(
  dataDir: string,
  corpus: (writer: CorpusWriter) => Promise<void>,
): Promise<void> {
  const persistence = await openJsonlPersistence({ root: dataDir });
  try {
    await corpus({
      persistence,
      dataDir,
      async write(header, batches) {
        const { incarnation } = await persistence.create({ header });
        const session = new Session({
          header,
          incarnation,
          writer: persistenceWriter(persistence, header.id),
        });
        for (const batch of batches) await session.append(batch);
        return session;
      },
    });
  } finally {
    await persistence.close();
  }
}

export async function startBrowserHost(options: {
  readonly corpus: (writer: CorpusWriter) => Promise<void>;
  readonly runtime?: Partial<Parameters<typeof openStrandRuntime>[0]>;
  readonly viewport?: { width: number; height: number };
  /** Default: what `npm run build:web` ships (React's production build). */
  readonly production?: boolean;
  /** Prefix of the temp folder's name. */
  readonly prefix?: string;
}): Promise<BrowserHost> {
  const { tmp, dataDir, webRoot } = await prepareSite({
    prefix: options.prefix ?? 'strand-web-e2e-',
    corpus: options.corpus,
    production: options.production ?? true,
  });
  const runtime = await openStrandRuntime({ dataDir, ...options.runtime });
  const host = await startHost({ services: runtime.services, port: 0, webRoot });
  await runtime.searchReady;
  const { context, page } = await openChromiumPage(path.join(tmp, 'profile'), {
    viewport: options.viewport ?? { width: 1280, height: 900 },
  });
  return {
    page,
    context,
    host,
    runtime,
    dataDir,
    webRoot,
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

/** The header of a subagent child of `parent` (depth 1), as the runtime's spawn writes one. */
export function subagentHeader(child: {
  readonly parent: string;
  readonly id: string;
  readonly createdAt: number;
}): SessionHeader {
  return newSessionHeader({
    id: SessionId(child.id),
    parentSession: SessionId(child.parent),
    origin: 'subagent',
    delegationDepth: 1,
    createdAt: child.createdAt,
    cwd: '/home/demo',
  });
}
