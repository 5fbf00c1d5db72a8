/**
 * Browser tests (tier: e2e) of what a newcomer met first (issue 45): a deep link far back in a
 * long session opens at its event by reading the page around it (one `session.page`, progress
 * shown meanwhile), an unknown session is one clear state, subagents are named by their label in
 * the list and the panel alike, forks are marked, the phone layout gives the transcript the
 * screen, the search query lives in the address, and the light and dark themes pass axe's
 * contrast rule — in Debian's Chromium against a host.
 */
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { persistenceWriter } from '@strand/persistence';
import { newSessionHeader, planFork, Session, SessionId, type SessionEventInput } from '@strand/session';
import { descriptorEvent } from '@strand/subagent';
import { startBrowserHost, subagentHeader, UI_TIMEOUT, type BrowserHost } from './testing/harness.js';

const LONG = 'newcomer-long';
const PARENT = 'newcomer-parent';
const CHILD = 'newcomer-child';
const FORK = 'newcomer-fork';
/** A Strand export of PARENT continued in Codex, imported back (`session/continued-from`). */
const CONTINUED = 'codex-newcomer-continued';
/** Four events a turn: 6,000 events, the target near the start — far before the first window. */
const TURNS = 1_500;
const TARGET = 1 + 4 * 10 + 1; // turn 10's user message (the title is seq 0)
const NEEDLE = 'periwinkle';

function turn(i: number): SessionEventInput[] {
  return [
    { type: 'turn/start', data: {} },
    {
      type: 'user/message',
      data: { author: 'human', content: i === 10 ? `find the ${NEEDLE}` : `question ${i}` },
    },
    { type: 'assistant/message', data: { content: `answer ${i}` } },
    { type: 'turn/end', data: { reason: 'completed' } },
  ];
}

let env: BrowserHost;
let page: Page;
const url = (path: string): string => new URL(path, env.host.url).href;
const view = (id: string) => page.locator(`[data-testid="session-view"][data-session-id="${id}"]`);
const listRow = (id: string) => page.locator(`[data-testid="session-row"][data-session-id="${id}"]`);

function here(): string {
  const at = new URL(page.url());
  return at.pathname + at.search;
}

/** axe's contrast rule on the page as it is: the violations, each with the nodes it names. */
async function contrastViolations(): Promise<{ id: string; targets: string[] }[]> {
  const axe = createRequire(import.meta.url)('axe-core') as { source: string };
  await page.addScriptTag({ content: axe.source });
  return page.evaluate(async () => {
    const run = (
      window as unknown as { axe: { run: (context: Document, options: object) => Promise<unknown> } }
    ).axe.run;
    const result = (await run(document, { runOnly: { type: 'rule', values: ['color-contrast'] } })) as {
      violations: { id: string; nodes: { target: string[]; failureSummary?: string }[] }[];
    };
    return result.violations.map((violation) => ({
      id: violation.id,
      targets: violation.nodes.map((node) => `${node.target.join(' ')}: ${node.failureSummary ?? ''}`),
    }));
  });
}

describe('what a newcomer meets, in Chromium', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    env = await startBrowserHost({
      prefix: 'strand-newcomer-e2e-',
      viewport: { width: 1280, height: 800 },
      corpus: async ({ write, persistence }) => {
        const base = Date.UTC(2026, 10, 1);
        await write(newSessionHeader({ id: SessionId(LONG), cwd: '/home/demo', createdAt: base }), [
          [{ type: 'session/title', data: { title: 'A long session' } }],
          ...Array.from({ length: TURNS }, (_, i) => turn(i)),
        ]);
        const parent = await write(
          newSessionHeader({ id: SessionId(PARENT), cwd: '/home/demo', createdAt: base + 1 }),
          [[{ type: 'session/title', data: { title: 'The parent' } }, ...turn(0)]],
        );
        await write(subagentHeader({ parent: PARENT, id: CHILD, createdAt: base + 2 }), [
          [descriptorEvent({ version: 2, mode: 'one-shot', label: 'researcher' }), ...turn(1)],
        ]);
        // A fork seeded with the parent's events, its title included (what `session.fork` writes).
        const plan = planFork(parent.id, parent.events, parent.events.length, {
          ...newSessionHeader({ id: SessionId(FORK), cwd: '/home/demo', createdAt: base + 3 }),
        });
        const { incarnation } = await persistence.create({
          header: plan.header,
          inheritedEvents: plan.events,
        });
        const fork = new Session({
          header: plan.header,
          incarnation,
          writer: persistenceWriter(persistence, plan.header.id),
          events: plan.events,
          inheritedEventCount: plan.inheritedEventCount,
        });
        await fork.append(turn(2));
        await write(
          {
            ...newSessionHeader({ id: SessionId(CONTINUED), cwd: '/home/demo', createdAt: base + 4 }),
            source: { harness: 'codex', sourceId: 'newcomer-continued' },
          },
          [
            [
              ...turn(0),
              { type: 'session/continued-from', data: { session: PARENT, cut: 4, harness: 'codex' } },
              ...turn(3),
            ],
          ],
        );
      },
    });
    page = env.page;
  }, 180_000);

  afterAll(async () => {
    await env?.close();
  }, 60_000);

  it('opens a deep link far back at its event with one session.page around it, progress shown while it loads', async () => {
    const pages: Record<string, unknown>[] = [];
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    // Every RPC passes through; the answer to the read around the target waits until the test has
    // seen the progress it shows meanwhile.
    await page.routeWebSocket(/\/rpc/, (client) => {
      const server = client.connectToServer();
      const heldIds = new Set<unknown>();
      client.onMessage((message) => {
        const frame = JSON.parse(String(message)) as {
          id?: unknown;
          method?: string;
          params?: Record<string, unknown>;
        };
        if (frame.method === 'session.page' && frame.params !== undefined) {
          pages.push(frame.params);
          if (frame.params.fromSeq !== undefined) heldIds.add(frame.id);
        }
        server.send(message);
      });
      server.onMessage((message) => {
        const frame = JSON.parse(String(message)) as { id?: unknown };
        if (heldIds.has(frame.id)) void held.then(() => client.send(message));
        else client.send(message);
      });
    });
    try {
      await page.goto(url(`/sessions/${LONG}?seq=${TARGET}`));
      await view(LONG).getByTestId('target-loading').waitFor();
      expect(await view(LONG).getByTestId('target-loading').textContent()).toContain(`#${TARGET}`);
      release();
      const target = view(LONG).locator(`[data-testid="event"][data-seq="${TARGET}"]`);
      await target.waitFor();
      await expect.poll(() => target.getAttribute('data-target'), { timeout: UI_TIMEOUT }).toBe('true');
      expect(await target.textContent()).toContain(NEEDLE);
      expect(await view(LONG).getByTestId('target-loading').count()).toBe(0);
      // One read from just above the target; no paging back from the end.
      expect(pages.filter((params) => params.beforeSeq !== undefined)).toEqual([]);
      expect(pages).toHaveLength(1);
      expect(pages[0]).toMatchObject({ id: LONG, fromSeq: TARGET - 20 });
      // The events between the excerpt and the end are said to be missing, with a way to the end.
      await view(LONG).getByTestId('excerpt-end').waitFor();
      await view(LONG).getByTestId('to-latest').click();
      await view(LONG)
        .locator(`[data-testid="event"][data-seq="${4 * TURNS}"]`)
        .waitFor();
      expect(here()).toBe(`/sessions/${LONG}`);
      await env.shot('newcomer-01-deep-link');
    } finally {
      await page.unrouteAll();
    }
  });

  it('says an unknown session is not there, in one state: no spinner, no composer', async () => {
    await page.goto(url('/sessions/no-such-session'));
    const unknown = view('no-such-session').getByTestId('session-unknown');
    await unknown.waitFor();
    expect(await unknown.textContent()).toContain('No session with id no-such-session');
    expect(await view('no-such-session').locator('.mantine-Loader-root').count()).toBe(0);
    expect(await page.getByTestId('composer').count()).toBe(0);
    expect(await page.getByTestId('follow-error').count()).toBe(0);
    expect(await page.getByText('Opening').count()).toBe(0);
    await env.shot('newcomer-02-unknown');
  });

  it('names a subagent by its label in the list and the panel alike, and marks a fork in both places', async () => {
    await page.goto(url(`/sessions/${PARENT}`));
    await view(PARENT).locator('[data-testid="event"]').first().waitFor();
    await listRow(PARENT).getByTestId('row-toggle').click();
    await expect
      .poll(() => listRow(CHILD).getByTestId('session-title').textContent(), { timeout: UI_TIMEOUT })
      .toBe('researcher');
    const panel = page.locator(`[data-testid="tree-row"][data-session-id="${CHILD}"]`);
    await expect
      .poll(() => panel.getByTestId('tree-label').textContent(), { timeout: UI_TIMEOUT })
      .toBe('researcher');
    // The fork inherited the parent's title: marked as a fork in the list and in its view.
    expect(await listRow(FORK).getByTestId('session-title').textContent()).toBe('The parent');
    await listRow(FORK).getByTestId('fork-badge').waitFor();
    expect(await listRow(PARENT).getByTestId('fork-badge').count()).toBe(0);
    await listRow(FORK).click();
    await view(FORK).getByTestId('fork-badge').waitFor();
    expect(await view(FORK).getByTestId('fork-badge').getAttribute('title')).toBe(`forked from ${PARENT}`);
  });

  it('says a continued export continues its origin, and links to it', async () => {
    await page.goto(url(`/sessions/${CONTINUED}`));
    const line = view(CONTINUED).getByTestId('continued-from');
    await expect
      .poll(() => line.textContent(), { timeout: UI_TIMEOUT })
      .toBe('Continued in Codex from The parent');
    expect(await view(PARENT).count()).toBe(0);
    await line.getByTestId('continued-from-origin').click();
    await view(PARENT).locator('[data-testid="event"]').first().waitFor();
    expect(here()).toBe(`/sessions/${PARENT}`);
    expect(await view(PARENT).getByTestId('continued-from').count()).toBe(0);
  });

  it('at 390×844 the session header takes at most a fifth of the height, the transcript most of it', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await page.goto(url(`/sessions/${PARENT}`));
      await view(PARENT).locator('[data-testid="event"]').first().waitFor();
      const header = await page.getByTestId('session-header').boundingBox();
      const transcript = await page.getByTestId('event-list').boundingBox();
      if (header === null || transcript === null) throw new Error('no header or transcript box');
      expect(header.height / 844).toBeLessThanOrEqual(0.2);
      expect(transcript.height / 844).toBeGreaterThanOrEqual(0.5);
      // The details are a tap away.
      await page.getByTestId('header-details-toggle').click();
      await page.getByTestId('view-usage').waitFor({ state: 'visible' });
      await env.shot('newcomer-03-phone');
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it('keeps the search query in the address: a reload keeps it, back and forward return to it', async () => {
    await page.goto(url('/'));
    await page.getByTestId('search-input').fill(NEEDLE);
    const hit = page.locator(`[data-testid="search-result"][data-session-id="${LONG}"]`);
    await hit.waitFor();
    expect(new URL(page.url()).searchParams.get('q')).toBe(NEEDLE);
    await page.reload();
    expect(await page.getByTestId('search-input').inputValue()).toBe(NEEDLE);
    await hit.waitFor();
    await hit.getByTestId('search-snippet').first().click();
    await view(LONG).locator(`[data-testid="event"][data-seq="${TARGET}"]`).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/sessions/${LONG}`);
    expect(new URL(page.url()).searchParams.get('seq')).toBe(String(TARGET));
    // The search stays beside the hits it opened.
    expect(await page.getByTestId('search-input').inputValue()).toBe(NEEDLE);
    await page.goBack();
    await expect.poll(here, { timeout: UI_TIMEOUT }).toBe(`/?q=${NEEDLE}`);
    expect(await page.getByTestId('search-input').inputValue()).toBe(NEEDLE);
    await page.goForward();
    await expect.poll(() => new URL(page.url()).pathname, { timeout: UI_TIMEOUT }).toBe(`/sessions/${LONG}`);
    await page.getByTestId('search-input').fill('');
    await expect.poll(() => new URL(page.url()).searchParams.has('q'), { timeout: UI_TIMEOUT }).toBe(false);
  });

  it('sets the chosen scheme before any script of the bundle runs (no light flash)', async () => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(url('/'));
    await page.evaluate(() => localStorage.setItem('strand-color-scheme', 'dark'));
    // With the bundle refused, only the page's own inline script can have set the scheme.
    await page.route('**/*.js', (route) => route.abort());
    try {
      await page.goto(url('/'));
      expect(
        await page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme')),
      ).toBe('dark');
    } finally {
      await page.unroute('**/*.js');
      await page.goto(url('/'));
      await page.evaluate(() => localStorage.clear());
    }
  });

  it('follows prefers-color-scheme, keeps the toggle in local storage, and passes axe contrast in both themes', async () => {
    const scheme = () =>
      page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'));
    await page.emulateMedia({ colorScheme: 'dark' });
    // The page must be on the host's origin to reach its local storage (the suite runs shuffled).
    const forget = async (): Promise<void> => {
      await page.goto(url('/'));
      await page.evaluate(() => localStorage.clear());
    };
    try {
      await forget();
      await page.goto(url(`/sessions/${PARENT}`));
      await view(PARENT).locator('[data-testid="event"]').first().waitFor();
      await expect.poll(scheme, { timeout: UI_TIMEOUT }).toBe('dark');
      expect(await contrastViolations()).toEqual([]);
      await env.shot('newcomer-04-dark');
      await page.getByTestId('theme-toggle').click();
      await expect.poll(scheme, { timeout: UI_TIMEOUT }).toBe('light');
      // The reader's choice outlives a reload, over the system's preference.
      await page.reload();
      await view(PARENT).locator('[data-testid="event"]').first().waitFor();
      await expect.poll(scheme, { timeout: UI_TIMEOUT }).toBe('light');
      expect(await contrastViolations()).toEqual([]);
      await env.shot('newcomer-05-light');
    } finally {
      await forget();
      await page.emulateMedia({ colorScheme: 'light' });
    }
  });
});
