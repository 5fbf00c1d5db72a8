/**
 * Browser tests (tier: e2e) of the UI's addresses, layout and keyboard: `/sessions/<id>` and
 * `?seq=N` deep links (an event outside the first window is paged to, centred and marked),
 * back/forward, reload, event permalinks, phone and 1024 px layouts measured by bounding boxes,
 * skip links and keyboard navigation of the transcript — in Debian's Chromium against a host.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startHost } from '@strand/host';
import { SessionId, newSessionHeader, type SessionEventInput } from '@strand/session';
import { startBrowserHost, UI_TIMEOUT, type BrowserHost } from './testing/harness.js';

/** An id a URL must encode (a slash, a space, `#`, `%`, non-ASCII). */
const LONG = 'url/long session#1 100% ✓';
const SHORT = 'url-short';
const TURNS = 100;
/** Four events a turn: far beyond the first window (100 events) of a 400-event session. */
const TARGET = 4 * 3 + 1; // turn 3's user message

function turn(i: number): SessionEventInput[] {
  return [
    { type: 'turn/start', data: {} },
    { type: 'user/message', data: { author: 'human', content: `question ${i}` } },
    { type: 'assistant/message', data: { content: `answer ${i}` } },
    { type: 'turn/end', data: { reason: 'completed' } },
  ];
}

let env: BrowserHost;
let page: Page;

const url = (path: string): string => new URL(path, env.host.url).href;
const sessionPath = (id: string, seq?: number): string =>
  `/sessions/${encodeURIComponent(id)}${seq === undefined ? '' : `?seq=${seq}`}`;
const view = (id: string) => page.locator(`[data-testid="session-view"][data-session-id="${id}"]`);
const row = (id: string, seq: number) => view(id).locator(`[data-testid="event"][data-seq="${seq}"]`);

/** Where the page's address bar is, as path and query. */
function here(): string {
  const at = new URL(page.url());
  return at.pathname + at.search;
}

async function box(selector: string): Promise<{ x: number; y: number; width: number; height: number }> {
  const found = await page.locator(selector).first().boundingBox();
  if (found === null) throw new Error(`${selector} has no box`);
  return found;
}

/** `TARGET`'s row is loaded, marked, has the focus and lies inside the transcript's viewport. */
async function expectTargetShown(): Promise<void> {
  const target = row(LONG, TARGET);
  await target.waitFor();
  await expect.poll(() => target.getAttribute('data-target'), { timeout: UI_TIMEOUT }).toBe('true');
  expect(await target.getAttribute('aria-current')).toBe('location');
  await expect
    .poll(
      async () => {
        const list = await box('[data-testid="event-list"]');
        const shown = await target.boundingBox();
        return shown !== null && shown.y >= list.y && shown.y + shown.height <= list.y + list.height;
      },
      { timeout: UI_TIMEOUT },
    )
    .toBe(true);
  expect(await page.evaluate(() => document.activeElement?.getAttribute('data-seq'))).toBe(String(TARGET));
  // Exactly one row is marked.
  expect(await page.locator('[data-target="true"]').count()).toBe(1);
}

describe('URLs, layout and keyboard in Chromium', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    env = await startBrowserHost({
      viewport: { width: 1280, height: 800 },
      corpus: async (corpus) => {
        const write = corpus.write.bind(corpus);
        const base = Date.UTC(2026, 10, 1);
        await write(newSessionHeader({ id: SessionId(LONG), cwd: '/home/demo', createdAt: base }), [
          [{ type: 'session/title', data: { title: 'A long session' } }],
          ...Array.from({ length: TURNS }, (_, i) => turn(i)),
        ]);
        await write(newSessionHeader({ id: SessionId(SHORT), cwd: '/home/demo', createdAt: base + 1 }), [
          [
            { type: 'session/title', data: { title: 'A short session' } },
            { type: 'turn/start', data: {} },
            { type: 'user/message', data: { author: 'human', content: 'read the file' } },
            {
              type: 'assistant/message',
              data: {
                content: 'reading',
                toolCalls: [{ id: 'c1', name: 'read_file', arguments: '{"path":"a.ts"}' }],
              },
            },
            { type: 'tool/call', data: { callId: 'c1', name: 'read_file', arguments: '{"path":"a.ts"}' } },
            { type: 'tool/result', data: { callId: 'c1', content: 'export const a = 1;' } },
            { type: 'assistant/message', data: { content: 'done' } },
            { type: 'turn/end', data: { reason: 'completed' } },
          ],
        ]);
      },
    });
    page = env.page;
  }, 180_000);

  afterAll(async () => {
    await env?.close();
  }, 60_000);

  it('opens /sessions/<encoded id> directly: the host serves the page and the view follows that session', async () => {
    const response = await page.goto(url(sessionPath(LONG)));
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-type']).toBe('text/html; charset=utf-8');
    await row(LONG, 4 * TURNS).waitFor();
    expect(here()).toBe(sessionPath(LONG));
    // Opened at its end: the first window, not the whole log.
    expect(await view(LONG).getByTestId('load-older').count()).toBe(1);
    await env.shot('urls-01-deep-link');
  });

  it('opens ?seq=N at that event: pages back past the first window, centres it, marks it, focuses it', async () => {
    await page.goto(url(sessionPath(LONG, TARGET)));
    await expectTargetShown();
    expect(here()).toBe(sessionPath(LONG, TARGET));
    await env.shot('urls-02-deep-link-seq');
  });

  it('keeps the place on reload', async () => {
    await page.goto(url(sessionPath(LONG, TARGET)));
    await expectTargetShown();
    await page.reload();
    await expectTargetShown();
    expect(here()).toBe(sessionPath(LONG, TARGET));
  });

  it('back and forward move between sessions and events; a permalink click is a new entry', async () => {
    await page.goto(url(sessionPath(LONG, TARGET)));
    await expectTargetShown();
    await page.locator(`[data-testid="session-row"][data-session-id="${SHORT}"]`).click();
    await view(SHORT).locator('[data-testid="event"]').first().waitFor();
    expect(here()).toBe(sessionPath(SHORT));
    await page.goBack();
    await expectTargetShown();
    expect(here()).toBe(sessionPath(LONG, TARGET));
    await page.goForward();
    await view(SHORT).locator('[data-testid="event"]').first().waitFor();
    expect(here()).toBe(sessionPath(SHORT));
    // An event's #seq is its link.
    const link = row(SHORT, 3).getByTestId('seq-link');
    expect(await link.getAttribute('href')).toBe(sessionPath(SHORT, 3));
    await link.click();
    expect(here()).toBe(sessionPath(SHORT, 3));
    await expect.poll(() => row(SHORT, 3).getAttribute('data-target'), { timeout: UI_TIMEOUT }).toBe('true');
    await page.goBack();
    expect(here()).toBe(sessionPath(SHORT));
    await expect.poll(() => page.locator('[data-target="true"]').count(), { timeout: UI_TIMEOUT }).toBe(0);
  });

  it('a deep link carrying the token of a host that needs one: the token moves to the cookie, the place stays', async () => {
    const token = 'urls-e2e-token-0123456789';
    // The same corpus and built UI (the harness builds it beside the data folder), behind a token.
    const guarded = await startHost({
      services: env.runtime.services,
      webRoot: path.join(path.dirname(env.dataDir), 'web'),
      token,
      requireToken: true,
    });
    try {
      const at = new URL(guarded.url);
      at.pathname = sessionPath(LONG);
      at.search = `?token=${token}&seq=${TARGET}`;
      await page.goto(at.href);
      await expectTargetShown();
      expect(here()).toBe(sessionPath(LONG, TARGET));
      await page.reload();
      await expectTargetShown();
      // Without the cookie the same deep link explains what is missing instead of connecting.
      await env.context.clearCookies();
      await page.goto(new URL(sessionPath(LONG, TARGET), guarded.url).href);
      await page.locator('[data-testid="access-problem"][data-problem="missing"]').waitFor();
    } finally {
      await env.context.clearCookies();
      await guarded.close();
    }
  });

  it('says so for a seq past the end and for an unknown path', async () => {
    await page.goto(url(sessionPath(SHORT, 500)));
    await view(SHORT).getByTestId('target-missing').waitFor();
    expect(await view(SHORT).getByTestId('target-missing').textContent()).toContain('#500');
    await page.goto(url('/nowhere'));
    await page.getByTestId('route-not-found').waitFor();
  });

  it('moves between transcript events with j/k, arrows, Home/End; Enter opens a tool card; focus is visible', async () => {
    await page.goto(url(sessionPath(SHORT)));
    const list = view(SHORT).getByTestId('event-list');
    await row(SHORT, 7).waitFor();
    await list.focus();
    const focusedSeq = () => page.evaluate(() => document.activeElement?.getAttribute('data-seq') ?? null);
    await page.keyboard.press('Home');
    const first = Number(await focusedSeq());
    await page.keyboard.press('j');
    const second = Number(await focusedSeq());
    expect(second).toBeGreaterThan(first);
    await page.keyboard.press('ArrowDown');
    expect(Number(await focusedSeq())).toBeGreaterThan(second);
    await page.keyboard.press('k');
    expect(Number(await focusedSeq())).toBe(second);
    await page.keyboard.press('ArrowUp');
    expect(Number(await focusedSeq())).toBe(first);
    await page.keyboard.press('End');
    expect(await focusedSeq()).toBe('7');
    // The focus ring is drawn (keyboard focus: :focus-visible).
    expect(await page.evaluate(() => getComputedStyle(document.activeElement as Element).outlineStyle)).toBe(
      'solid',
    );
    // To the tool call's row, then Enter opens its card.
    while ((await focusedSeq()) !== '4') await page.keyboard.press('k');
    const card = row(SHORT, 4).getByTestId('tool-card');
    expect(await card.evaluate((details) => (details as HTMLDetailsElement).open)).toBe(false);
    await page.keyboard.press('Enter');
    expect(await card.evaluate((details) => (details as HTMLDetailsElement).open)).toBe(true);
    // Escape goes from the card's summary back to its row.
    await page.keyboard.press('Escape');
    expect(await focusedSeq()).toBe('4');
    // Typing in the composer is never taken for a key of the transcript.
    await view(SHORT).getByTestId('composer-input').focus();
    await page.keyboard.type('jk');
    expect(await view(SHORT).getByTestId('composer-input').inputValue()).toBe('jk');
  });

  it('reaches the list, the transcript and the panel through skip links', async () => {
    await page.goto(url(sessionPath(SHORT)));
    await row(SHORT, 7).waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe(
      'skip-transcript',
    );
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.id), { timeout: UI_TIMEOUT })
      .toBe('strand-transcript');
    for (const [link, region] of [
      ['skip-sessions', 'strand-sessions'],
      ['skip-subagents', 'strand-subagents'],
    ] as const) {
      await page.getByTestId(link).focus();
      await page.keyboard.press('Enter');
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.id), { timeout: UI_TIMEOUT })
        .toBe(region);
    }
    // Every button and link has a name a screen reader can say.
    const unnamed = await page
      .locator('button, a[href], [role="button"]')
      .evaluateAll((elements) =>
        elements
          .filter(
            (element) => (element.getAttribute('aria-label') ?? element.textContent ?? '').trim() === '',
          )
          .map((element) => element.outerHTML.slice(0, 120)),
      );
    expect(unnamed).toEqual([]);
  });

  it('at 1024 px: list beside a wide transcript, the subagent panel behind its button', async () => {
    await page.setViewportSize({ width: 1024, height: 768 });
    try {
      await page.goto(url(sessionPath(SHORT)));
      await row(SHORT, 7).waitFor();
      const transcript = await box('[data-testid="event-list"]');
      expect(transcript.width).toBeGreaterThanOrEqual(640);
      const navbar = await box('[data-testid="navbar"]');
      expect(navbar.x).toBeGreaterThanOrEqual(0);
      expect(navbar.x + navbar.width).toBeLessThanOrEqual(transcript.x);
      // The panel is off screen until asked for.
      expect((await box('[data-testid="aside"]')).x).toBeGreaterThanOrEqual(1024);
      await page.getByTestId('aside-toggle').click();
      // Until it has slid in (a transition): a panel's width at the right edge, not a
      // full-width cover over the transcript.
      await expect
        .poll(
          async () => {
            const panel = await box('[data-testid="aside"]');
            return Math.round(panel.x + panel.width);
          },
          { timeout: UI_TIMEOUT },
        )
        .toBe(1024);
      expect((await box('[data-testid="aside"]')).width).toBeLessThanOrEqual(400);
      await env.shot('urls-03-1024-panel');
      await page.getByTestId('aside-toggle').click();
      await expect
        .poll(async () => (await box('[data-testid="aside"]')).x, { timeout: UI_TIMEOUT })
        .toBeGreaterThanOrEqual(1024);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1024);
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it('at 1280 px: list, transcript and subagent panel side by side', async () => {
    await page.goto(url(sessionPath(SHORT)));
    await row(SHORT, 7).waitFor();
    const transcript = await box('[data-testid="event-list"]');
    const aside = await box('[data-testid="aside"]');
    expect(transcript.width).toBeGreaterThanOrEqual(560);
    expect(transcript.x + transcript.width).toBeLessThanOrEqual(aside.x);
    expect(aside.x + aside.width).toBeLessThanOrEqual(1280);
    expect(await page.getByTestId('aside-toggle').isVisible()).toBe(false);
  });

  it('at 400 px: the transcript takes the width, the list is a drawer behind the burger', async () => {
    await page.setViewportSize({ width: 400, height: 800 });
    try {
      await page.goto(url(sessionPath(SHORT)));
      await row(SHORT, 7).waitFor();
      const transcript = await box('[data-testid="event-list"]');
      expect(transcript.width).toBeGreaterThanOrEqual(340);
      expect(transcript.x + transcript.width).toBeLessThanOrEqual(400);
      const navbar = await box('[data-testid="navbar"]');
      expect(navbar.x + navbar.width).toBeLessThanOrEqual(0);
      // The composer and its buttons fit the screen.
      for (const control of ['composer-input', 'composer-send', 'composer-stop']) {
        const shown = await box(`[data-testid="${control}"]`);
        expect(shown.x, control).toBeGreaterThanOrEqual(0);
        expect(shown.x + shown.width, control).toBeLessThanOrEqual(400);
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(400);
      await env.shot('urls-04-phone');
      // The burger opens the list; picking a session closes it and opens the session.
      const burger = page.getByTestId('nav-toggle');
      expect(await burger.getAttribute('aria-label')).toBe('Show the session list');
      await burger.click();
      await expect
        .poll(async () => (await box('[data-testid="navbar"]')).x, { timeout: UI_TIMEOUT })
        .toBeGreaterThanOrEqual(0);
      await env.shot('urls-05-phone-list');
      await page.locator(`[data-testid="session-row"][data-session-id="${LONG}"]`).click();
      await row(LONG, 4 * TURNS).waitFor();
      expect(here()).toBe(sessionPath(LONG));
      await expect
        .poll(
          async () => {
            const shown = await box('[data-testid="navbar"]');
            return shown.x + shown.width;
          },
          { timeout: UI_TIMEOUT },
        )
        .toBeLessThanOrEqual(0);
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });
});
