/**
 * Browser tests (tier: e2e) of the usage page: `/usage` draws tokens per day by kind and cost per
 * day by model as SVG bars, totals and ranked tables from `usage.summary`, and its rows and bars
 * lead to the sessions (a session opens, a project or harness shows the list filtered). A real
 * headless Chromium against an in-process host over sessions with known usage at fixed times.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { SessionId, newSessionHeader, type SessionEventInput, type SessionSource } from '@strand/session';
import { UI_TIMEOUT, waitConnectionState } from './testing/browser.js';
import { startBrowserHost, type BrowserHost, type CorpusWriter } from './testing/harness.js';

// Noon UTC: the same calendar day in every zone from UTC−11 to UTC+11, whatever TZ Chromium runs in.
const DAY1 = Date.parse('2026-11-02T12:00:00Z');
const DAY2 = Date.parse('2026-11-03T12:00:00Z');
const DAY3 = Date.parse('2026-11-05T12:00:00Z');
const SONNET = { provider: 'anthropic', model: 'claude-sonnet-4-5' };
const HAIKU = { provider: 'anthropic', model: 'claude-haiku-4-5' };
/** A model no price table knows: its tokens count, its cost is "—". */
const OWN = { provider: 'local', model: 'my-model' };

function answer(time: number, usage: Record<string, number>): SessionEventInput[] {
  return [
    { type: 'turn/start', data: {}, time },
    { type: 'user/message', data: { content: 'go', author: 'human' }, time },
    { type: 'assistant/message', data: { content: 'done', usage }, time },
    { type: 'turn/end', data: { reason: 'completed' }, time },
  ];
}

/**
 * alpha (/work/a, Strand): Sonnet on day 1 (all four kinds) and day 2; gamma (/work/a, Codex):
 * Haiku on day 2, so day 2's cost splits over two models; beta (/work/b): the unpriced model on
 * day 3. Nov 4 has nothing and is drawn empty.
 */
async function corpus({ write }: CorpusWriter): Promise<void> {
  const session = async (
    id: string,
    cwd: string,
    events: SessionEventInput[],
    source?: SessionSource,
  ): Promise<void> => {
    const header = newSessionHeader({
      id: SessionId(id),
      cwd,
      createdAt: DAY1,
      ...(source === undefined ? {} : { source }),
    });
    await write(header, [
      [{ type: 'session/title', data: { title: `Title of ${id}` }, time: DAY1 }, ...events],
    ]);
  };
  await session('alpha', '/work/a', [
    { type: 'request/header', data: SONNET, time: DAY1 },
    ...answer(DAY1, { input: 1_000, output: 2_000, cacheCreation: 3_000, cacheRead: 4_000 }),
    ...answer(DAY2, { input: 2_000, output: 1_000, cacheRead: 3_000 }),
  ]);
  await session(
    'gamma',
    '/work/a',
    [{ type: 'request/header', data: HAIKU, time: DAY2 }, ...answer(DAY2, { input: 1_000, output: 500 })],
    { harness: 'codex', sourceId: 'rollout-gamma' },
  );
  await session('beta', '/work/b', [
    { type: 'request/header', data: OWN, time: DAY3 },
    ...answer(DAY3, { input: 500, output: 500, reasoning: 30 }),
  ]);
}

let env: BrowserHost | undefined;
let page: Page;

/** Opens `path` and waits until the page shows the host's answer to it. */
async function openUsage(path: string): Promise<void> {
  if (env === undefined) throw new Error('no host');
  await page.goto(new URL(path, env.host.url).href);
  await waitConnectionState(page, 'open');
  await page.locator('[data-testid="usage-page"][data-status="ready"]').waitFor({ timeout: UI_TIMEOUT });
}

const bars = (chart: string) => page.locator(`[data-testid="${chart}"] path.recharts-rectangle`);
const tableKeys = (group: string): Promise<string[]> =>
  page
    .locator(`[data-testid="usage-row"][data-group="${group}"]`)
    .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-key') ?? ''));
const listed = (): Promise<string[]> =>
  page
    .locator('[data-testid="session-row"]')
    .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-session-id') ?? '').sort());
function here(): string {
  const at = new URL(page.url());
  return at.pathname + at.search;
}

describe('the usage page in Chromium', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    env = await startBrowserHost({
      prefix: 'strand-usage-e2e-',
      corpus,
      viewport: { width: 1440, height: 1000 },
    });
    page = env.page;
  }, 180_000);

  afterAll(async () => {
    await env?.close();
  }, 60_000);

  it('draws tokens by kind and cost by model per day, every day of the range, with totals', async () => {
    if (env === undefined) throw new Error('no host');
    await page.goto(env.host.url);
    await waitConnectionState(page, 'open');
    await page.getByTestId('nav-usage').click();
    await page.locator('[data-testid="usage-page"][data-status="ready"]').waitFor({ timeout: UI_TIMEOUT });
    expect(here()).toBe('/usage');
    // Day 1 has all four kinds, day 2 three (no cache write), day 3 two, Nov 4 none.
    await expect.poll(() => bars('usage-chart-tokens').count(), { timeout: UI_TIMEOUT }).toBe(9);
    // Day 1 Sonnet, day 2 Sonnet and Haiku (split by a per-model call), day 3 unpriced: nothing.
    await expect.poll(() => bars('usage-chart-cost').count(), { timeout: UI_TIMEOUT }).toBe(3);
    const ticks = await page
      .locator('[data-testid="usage-chart-tokens"] .recharts-xAxis .recharts-cartesian-axis-tick-value')
      .allTextContents();
    expect(ticks).toEqual(['Nov 2', 'Nov 3', 'Nov 4', 'Nov 5']);
    const legend = await page.getByTestId('usage-chart-cost').textContent();
    expect(legend).toContain('claude-sonnet-4-5');
    expect(legend).toContain('claude-haiku-4-5');
    expect(await page.getByTestId('usage-total-tokens').textContent()).toBe('18,500');
    expect(await page.getByTestId('usage-total-sessions').textContent()).toBe('3');
    expect(await page.getByTestId('usage-pricing').textContent()).toContain('my-model');
    // The unpriced session's cost is unknown, never $0.00.
    const beta = page.locator('[data-testid="usage-row"][data-group="session"][data-key="beta"]');
    expect(await beta.getByTestId('usage-cost').textContent()).toBe('—');
    expect(await tableKeys('day')).toEqual(['2026-11-05', '2026-11-03', '2026-11-02']);
    await env?.shot('usage-01-page');
  });

  it('reads its filters from the address and keeps them there', async () => {
    await openUsage('/usage?since=2026-11-03&harness=strand');
    expect(await tableKeys('day')).toEqual(['2026-11-05', '2026-11-03']);
    expect((await tableKeys('session')).sort()).toEqual(['alpha', 'beta']);
    await page.getByTestId('usage-filter-until').fill('2026-11-04');
    await expect
      .poll(here, { timeout: UI_TIMEOUT })
      .toBe('/usage?harness=strand&since=2026-11-03&until=2026-11-04');
    await expect.poll(() => tableKeys('day'), { timeout: UI_TIMEOUT }).toEqual(['2026-11-03']);
  });

  it('leads from a project or harness row to the session list filtered, and from a session row to it', async () => {
    await openUsage('/usage');
    await page.locator('[data-testid="usage-row"][data-group="project"][data-key="/work/a"] a').click();
    await expect.poll(here, { timeout: UI_TIMEOUT }).toBe('/?cwd=%2Fwork%2Fa');
    await expect.poll(listed, { timeout: UI_TIMEOUT }).toEqual(['alpha', 'gamma']);
    await env?.shot('usage-02-project-sessions');

    await openUsage('/usage');
    await page.locator('[data-testid="usage-row"][data-group="harness"][data-key="codex"] a').click();
    await expect.poll(here, { timeout: UI_TIMEOUT }).toBe('/?harness=codex');
    await expect.poll(listed, { timeout: UI_TIMEOUT }).toEqual(['gamma']);

    await openUsage('/usage');
    await page.locator('[data-testid="usage-row"][data-group="session"][data-key="alpha"] a').click();
    await page
      .locator('[data-testid="session-view"][data-session-id="alpha"]')
      .waitFor({ timeout: UI_TIMEOUT });
    expect(here()).toBe('/sessions/alpha');
    // Its header shows the host's cost beside its usage: the same figure as the table's row.
    const cost = page.locator(
      '[data-testid="session-view"][data-session-id="alpha"] [data-testid="view-cost"]',
    );
    await expect.poll(() => cost.textContent(), { timeout: UI_TIMEOUT }).toBe('Cost$0.07');
    await env?.shot('usage-03-session-cost');
  });

  it("shows each session's cost in its list row, as the host priced it", async () => {
    if (env === undefined) throw new Error('no host');
    await page.goto(env.host.url);
    await waitConnectionState(page, 'open');
    const rowCost = (id: string) =>
      page.locator(`[data-testid="session-row"][data-session-id="${id}"] [data-testid="row-cost"]`);
    // The same figure as the usage table's and the session view's; unpriced is unknown, not $0.00.
    await expect.poll(() => rowCost('alpha').textContent(), { timeout: UI_TIMEOUT }).toBe('$0.07');
    expect(await rowCost('beta').textContent()).toBe('—');
    expect(await rowCost('beta').getAttribute('title')).toContain('not priced: my-model');
    expect(await rowCost('gamma').textContent()).toBe('<$0.01');
    await env.shot('usage-04-list-costs');
  });

  it("leads from a day's bar to the session list under the page's other filters", async () => {
    await openUsage('/usage?cwd=%2Fwork%2Fb');
    await expect.poll(() => bars('usage-chart-tokens').count(), { timeout: UI_TIMEOUT }).toBe(2);
    await bars('usage-chart-tokens').first().click();
    await expect.poll(here, { timeout: UI_TIMEOUT }).toBe('/?cwd=%2Fwork%2Fb');
    await expect.poll(listed, { timeout: UI_TIMEOUT }).toEqual(['beta']);
  });
});
