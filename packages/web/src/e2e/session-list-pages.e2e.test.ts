/**
 * Browser test (tier: e2e) of the session list over a large corpus: 50,000 sessions read in pages
 * as the list scrolls to its end, and no `session.list` while nothing changes — a rename by
 * another writer re-reads exactly that row. RPCs are counted from the frames the page sends, over
 * a stretch of events (not a time window).
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openSqlitePersistence, persistenceWriter } from '@strand/persistence';
import { newSessionHeader, Session, SessionId } from '@strand/session';
import { scrollListToEnd } from './testing/list-scroll.js';
import { startBrowserHost, UI_TIMEOUT, type BrowserHost } from './testing/harness.js';

const COUNT = Number(process.env.STRAND_E2E_LIST_SESSIONS ?? 50_000);
const MIN = 60_000;
const CORPUS_TIMEOUT = 300_000;
const base = Date.UTC(2026, 0, 1);
const id = (i: number): string => `page-${String(i).padStart(6, '0')}`;

const rowLocator = (page: Page, sessionId: string) =>
  page.locator(`[data-testid="session-row"][data-session-id="${sessionId}"]`);

/** Every JSON-RPC request the page sent, in order (method and params). */
const sent: { method: string; params: Record<string, unknown> }[] = [];
const listCalls = (from: number) => sent.slice(from).filter((call) => call.method === 'session.list');

describe(`${COUNT.toLocaleString('en')} sessions in the list`, { timeout: 900_000 }, () => {
  let env: BrowserHost;

  beforeAll(async () => {
    env = await startBrowserHost({
      prefix: 'strand-web-pages-',
      runtime: { backend: 'sqlite', syncSearch: false },
      // Through the store directly: one SQLite database, many writers at once so commits group.
      corpus: async ({ dataDir }) => {
        const persistence = openSqlitePersistence({ path: path.join(dataDir, 'strand.db') });
        try {
          let next = 0;
          await Promise.all(
            Array.from({ length: 64 }, async () => {
              while (next < COUNT) {
                const i = next++;
                const header = newSessionHeader({ id: SessionId(id(i)), createdAt: base + i * MIN });
                const { incarnation } = await persistence.create({ header });
                const session = new Session({
                  header,
                  incarnation,
                  writer: persistenceWriter(persistence, header.id),
                });
                await session.append([{ type: 'session/title', data: { title: `Paged ${i}` } }]);
              }
            }),
          );
        } finally {
          await persistence.close();
        }
      },
    });
    // The host folds the hints of a corpus it found unindexed in the background: let it finish
    // (what is measured here is the list, not the host's first minutes).
    await env.runtime.listReady;
    env.page.on('websocket', (socket) =>
      socket.on('framesent', ({ payload }) => {
        const frame = JSON.parse(String(payload)) as { method?: string; params?: Record<string, unknown> };
        if (frame.method !== undefined) sent.push({ method: frame.method, params: frame.params ?? {} });
      }),
    );
  }, 900_000);

  afterAll(async () => {
    await env?.close();
  }, 60_000);

  it('shows the first page at once, reads pages as it scrolls to the end, and never polls', async () => {
    await env.page.goto(env.host.url, { timeout: CORPUS_TIMEOUT });
    // A hang guard sized for the corpus: the page's first calls (usage by session among them) cost
    // more on 50,000 sessions than the UI timeout allows on a busy machine.
    await env.page
      .locator('[data-testid="connection-state"][data-state="open"]')
      .waitFor({ timeout: CORPUS_TIMEOUT });
    const list = env.page.getByTestId('session-list');
    // Newest first: the last created is the first row, from the first page.
    await rowLocator(env.page, id(COUNT - 1)).waitFor({ timeout: CORPUS_TIMEOUT });
    const rowCount = async (): Promise<number> => Number(await list.getAttribute('data-row-count'));
    const inDom = (): Promise<number> => env.page.locator('[data-testid="session-row"]').count();
    expect(await rowCount()).toBeLessThan(COUNT);

    await scrollListToEnd(env.page, id(0));
    expect(await rowCount()).toBe(COUNT);
    expect(await inDom()).toBeLessThan(100);
    // Pages, not the whole list in one call: one first page, then cursor pages of at most 1,000.
    const pages = listCalls(0);
    expect(pages.length).toBeGreaterThanOrEqual(COUNT / 1_000);
    for (const call of pages) expect(Number(call.params.limit ?? 0)).toBeLessThanOrEqual(1_000);
    // Only the first page starts from the top: a poll would be another call without a cursor.
    const fromTheTop = pages.filter(
      (call) => call.params.cursor === undefined && call.params.ids === undefined,
    );
    expect(fromTheTop).toHaveLength(1);
    await env.shot('list-05-paged-bottom');

    // Idle, then one change by another writer: the list re-reads exactly that row, and nothing else.
    const mark = sent.length;
    const renamed = id(COUNT - 2);
    const agents = env.runtime.services.agents!;
    await agents.withLiveSession(
      SessionId(renamed),
      (session) => session.append({ type: 'session/title', data: { title: 'Renamed elsewhere' } }),
      new AbortController().signal,
    );
    await env.runtime.agents.whenSettled();
    await list.evaluate((element) => {
      element.scrollTop = 0;
    });
    await expect
      .poll(() => rowLocator(env.page, renamed).textContent(), { timeout: UI_TIMEOUT })
      .toContain('Renamed elsewhere');
    const rereads = listCalls(mark);
    expect(rereads.length).toBeGreaterThan(0);
    for (const call of rereads) expect(call.params).toEqual({ ids: [renamed] });
    expect(await rowCount()).toBe(COUNT);
  });
});
