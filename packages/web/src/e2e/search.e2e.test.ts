/**
 * Browser tests (tier: e2e) of search: a title word finds its session with the title shown and
 * ranked first; a hit opens its session at the hit; `"quoted words"` match only as a phrase; the
 * project and harness controls narrow the results. A real headless Chromium against an in-process
 * host serving the built web UI over a small corpus written here.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { RunningHost } from '@strand/host';
import { SessionId, newSessionHeader, type SessionEventInput, type SessionSource } from '@strand/session';
import { ARTIFACTS, UI_TIMEOUT, waitConnectionState } from './testing/browser.js';
import { startBrowserHost, type BrowserHost, type CorpusWriter } from './testing/harness.js';

let env: BrowserHost | undefined;
let host: RunningHost;
let page: Page;

const say = (text: string): SessionEventInput => ({
  type: 'user/message',
  data: { content: text, author: 'human' },
});
const title = (text: string): SessionEventInput => ({ type: 'session/title', data: { title: text } });

async function corpus({ write }: CorpusWriter): Promise<void> {
  const base = Date.UTC(2026, 10, 1);
  let n = 0;
  const stored = async (
    id: string,
    cwd: string,
    events: SessionEventInput[],
    source?: SessionSource,
  ): Promise<void> => {
    const header = newSessionHeader({
      id: SessionId(id),
      cwd,
      createdAt: base + 1000 * n++,
      ...(source === undefined ? {} : { source }),
    });
    // One append an event, as a harness writes them.
    await write(
      header,
      events.map((event) => [event]),
    );
  };
  // Oldest first: `titled` would rank last by recency; its title must put it first.
  await stored('titled', '/proj/alpha', [say('nothing to see'), title('Tune the walrus cache')]);
  await stored('busy', '/proj/beta', [
    say('walrus one'),
    say('walrus walrus two'),
    say('the flaky test again'),
  ]);
  await stored('scattered', '/proj/alpha', [say('this test is flaky sometimes')], {
    harness: 'codex',
    sourceId: 'rollout-1',
  });
}

async function home(): Promise<void> {
  await page.goto(host.url);
  await waitConnectionState(page, 'open');
}

function results(): Promise<string[]> {
  return page
    .locator('[data-testid="search-result"]')
    .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-session-id') ?? ''));
}

/** Types `query` and waits until the results are the answer to it (not an earlier keystroke's). */
async function searchFor(query: string, expected: readonly string[]): Promise<void> {
  await page.getByTestId('search-input').fill(query);
  await expect.poll(results, { timeout: UI_TIMEOUT }).toEqual(expected);
}

describe('search in Chromium', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    // The development build, as this suite has always run (the production build is the default).
    env = await startBrowserHost({
      prefix: 'strand-search-e2e-',
      corpus,
      production: false,
      viewport: { width: 1400, height: 900 },
    });
    ({ host, page } = env);
  }, 180_000);

  afterAll(async () => {
    await env?.close();
  }, 60_000);

  it('finds a session by a word of its title, ranked first with the title shown, and opens it at the hit', async () => {
    await home();
    await searchFor('walrus', ['titled', 'busy']);
    const first = page.locator('[data-testid="search-result"][data-session-id="titled"]');
    await expect
      .poll(() => first.getByTestId('search-result-title').textContent())
      .toContain('Tune the walrus cache');
    // An untitled session shows its id.
    const untitled = page.locator('[data-testid="search-result"][data-session-id="busy"]');
    await expect.poll(() => untitled.getByTestId('search-result-title').textContent()).toBe('busy');
    // The title's hit is the `session/title` event (seq 1), highlighted.
    const hit = first.getByTestId('search-snippet').first();
    expect(await hit.getAttribute('data-seq')).toBe('1');
    expect((await hit.locator('mark').allTextContents()).join(' ').toLowerCase()).toBe('walrus');
    await page.screenshot({ path: path.join(ARTIFACTS, 'search-01-title.png') });
    // Each hit is a control of its own, named for the session and the event it opens.
    const busyHit = untitled.getByRole('button', { name: 'Open busy at event 1' });
    await busyHit.click();
    await page.locator('[data-testid="session-view"][data-session-id="busy"]').waitFor();
  });

  it('matches "quoted words" only as a phrase; unquoted words must all occur', async () => {
    await home();
    await searchFor('"flaky test"', ['busy']);
    // Ranked order is not the point here: compare as sets.
    await page.getByTestId('search-input').fill('flaky test');
    await expect
      .poll(async () => (await results()).sort(), { timeout: UI_TIMEOUT })
      .toEqual(['busy', 'scattered']);
    await searchFor('"test flaky"', []);
    await page.getByTestId('search-empty').waitFor();
  });

  it('narrows by project folder and by harness', async () => {
    await home();
    await page.getByTestId('search-input').fill('flaky');
    await expect
      .poll(async () => (await results()).sort(), { timeout: UI_TIMEOUT })
      .toEqual(['busy', 'scattered']);
    // The list's own project/harness pair (ProjectHarnessSelect): open the menu, pick an option.
    const choose = async (name: 'Project' | 'Harness', option: string): Promise<void> => {
      await page.locator(`input[aria-label="${name}"]`).click();
      await page.getByRole('option', { name: option, exact: true }).click();
    };
    await choose('Project', '/proj/alpha');
    await expect.poll(results, { timeout: UI_TIMEOUT }).toEqual(['scattered']);
    await choose('Project', 'All projects');
    await choose('Harness', 'Strand');
    await expect.poll(results, { timeout: UI_TIMEOUT }).toEqual(['busy']);
    await choose('Harness', 'Codex');
    await expect.poll(results, { timeout: UI_TIMEOUT }).toEqual(['scattered']);
    await choose('Project', '/proj/beta');
    await expect.poll(results, { timeout: UI_TIMEOUT }).toEqual([]);
    await page.getByTestId('search-empty').waitFor();
    await page.screenshot({ path: path.join(ARTIFACTS, 'search-02-narrowed.png') });
  });
});
