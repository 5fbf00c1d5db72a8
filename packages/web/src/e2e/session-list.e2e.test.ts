/**
 * Browser tests (tier: e2e) of the session list: children nested under their parents (collapsed,
 * expandable), the order by last activity with its label, the project and harness filters, the
 * flat "show subagents" view, keyboard use, and 10,000 virtualized rows read in pages as they scroll — in Debian's Chromium
 * against an in-process host on real session files.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { SessionId, newSessionHeader, type SessionEventInput, type SessionHeader } from '@strand/session';
import { waitConnectionState } from './testing/browser.js';
import { scrollListToEnd } from './testing/list-scroll.js';
import { startBrowserHost, UI_TIMEOUT, type BrowserHost, type CorpusWriter } from './testing/harness.js';

const MIN = 60_000;
const HOUR = 60 * MIN;

const rowLocator = (page: Page, id: string) =>
  page.locator(`[data-testid="session-row"][data-session-id="${id}"]`);

/** The ids of the rows in the DOM, in order, with their depth. */
async function shownRows(page: Page): Promise<string[]> {
  return page
    .locator('[data-testid="session-row"]')
    .evaluateAll((rows) =>
      rows.map(
        (row) =>
          `${'  '.repeat(Number(row.getAttribute('data-depth')))}${row.getAttribute('data-session-id')}`,
      ),
    );
}

async function home(env: BrowserHost): Promise<void> {
  await env.page.goto(env.host.url);
  await waitConnectionState(env.page, 'open');
}

describe('session list in Chromium', { timeout: 120_000 }, () => {
  let env: BrowserHost;
  // Times relative to the corpus's writing, so the relative labels are known ("2 h ago") whatever
  // the date; the page's clock stays at that moment (below), so they stay known however long the
  // tests take and whichever ran before (the 10,000 sessions take a minute to write).
  const t = Date.now();

  beforeAll(async () => {
    env = await startBrowserHost({
      corpus: async (corpus: CorpusWriter) => {
        const header = (
          id: string,
          createdAt: number,
          extra: Partial<Parameters<typeof newSessionHeader>[0]> = {},
        ): SessionHeader => newSessionHeader({ id: SessionId(id), createdAt, ...extra });
        const titled = (title: string): SessionEventInput[] => [{ type: 'session/title', data: { title } }];
        const prompt = (text: string, time: number): SessionEventInput[] => [
          { type: 'turn/start', data: {}, time },
          { type: 'user/message', data: { content: text, author: 'human' }, time },
          { type: 'turn/end', data: { reason: 'completed' }, time },
        ];
        const child = (id: string, parent: string, createdAt: number, depth = 1): SessionHeader =>
          header(id, createdAt, {
            parentSession: SessionId(parent),
            origin: 'subagent',
            delegationDepth: depth,
            cwd: '/proj/beta',
          });
        // Created earliest, prompted latest: first.
        await corpus.write(header('sort-a', t - 5 * HOUR, { cwd: '/proj/alpha' }), [
          titled('Sort A'),
          prompt('the latest prompt', t - 10 * MIN),
        ]);
        // No prompt: sorted by its creation, between the others' prompts.
        await corpus.write(header('sort-b', t - 2.5 * HOUR, { cwd: '/proj/alpha' }), [titled('Sort B')]);
        await corpus.write(header('sort-c', t - 4 * HOUR, { cwd: '/proj/beta' }), [
          titled('Sort C'),
          prompt('an older prompt', t - 3 * HOUR),
        ]);
        await corpus.write(header('tree-p', t - 6 * HOUR, { cwd: '/proj/beta' }), [titled('Tree parent')]);
        await corpus.write(child('tree-p-kid1', 'tree-p', t - 5.9 * HOUR), [titled('Kid one')]);
        await corpus.write(child('tree-p-kid2', 'tree-p', t - 5.8 * HOUR), [titled('Kid two')]);
        await corpus.write(child('tree-p-kid1-g', 'tree-p-kid1', t - 5.7 * HOUR, 2), [titled('Grandkid')]);
        await corpus.write(child('lost-kid', 'never-written', t - 7 * HOUR), [titled('Lost kid')]);
        await corpus.write(
          header('codex-1', t - 8 * HOUR, {
            cwd: '/proj/beta',
            source: { harness: 'codex', sourceId: '01d00000-0000-7000-8000-000000000002' },
          }),
          [titled('From Codex')],
        );
      },
    });
    // Date.now() in the page is `t` from now on (timers still run): the labels' "now" is injected.
    await env.page.clock.setFixedTime(t);
  }, 180_000);

  afterAll(async () => {
    await env?.close();
  }, 60_000);

  it('nests children under their parent, collapsed with a count, and expands and collapses them', async () => {
    await home(env);
    const parent = rowLocator(env.page, 'tree-p');
    await parent.waitFor();
    expect(await parent.getAttribute('aria-expanded')).toBe('false');
    expect(await parent.getByTestId('child-count').textContent()).toBe('2');
    expect(await rowLocator(env.page, 'tree-p-kid1').count()).toBe(0);
    await parent.getByTestId('row-toggle').click();
    await rowLocator(env.page, 'tree-p-kid1').waitFor();
    expect(await parent.getAttribute('aria-expanded')).toBe('true');
    // Children right under their parent, one level in, by activity (kid2 was created later).
    let rows = await shownRows(env.page);
    expect(rows.slice(rows.indexOf('tree-p'), rows.indexOf('tree-p') + 3)).toEqual([
      'tree-p',
      '  tree-p-kid2',
      '  tree-p-kid1',
    ]);
    await rowLocator(env.page, 'tree-p-kid1').getByTestId('row-toggle').click();
    await rowLocator(env.page, 'tree-p-kid1-g').waitFor();
    rows = await shownRows(env.page);
    expect(rows[rows.indexOf('  tree-p-kid1') + 1]).toBe('    tree-p-kid1-g');
    await env.shot('list-01-nested');
    await parent.getByTestId('row-toggle').click();
    await expect.poll(() => rowLocator(env.page, 'tree-p-kid1').count(), { timeout: UI_TIMEOUT }).toBe(0);
    expect(await rowLocator(env.page, 'tree-p-kid1-g').count()).toBe(0);
    // A child whose parent is not listed is at the top level, marked.
    const lost = rowLocator(env.page, 'lost-kid');
    expect(await lost.getAttribute('data-depth')).toBe('0');
    expect(await lost.getByTestId('orphan-marker').getAttribute('data-reason')).toBe('parent-missing');
    expect(await lost.getByTestId('orphan-marker').textContent()).toBe('parent not listed');
  });

  it('shows every subagent flat behind "show subagents"', async () => {
    await home(env);
    await rowLocator(env.page, 'tree-p').waitFor();
    await env.page.getByText('Show subagents in the list, not nested').click();
    await rowLocator(env.page, 'tree-p-kid1-g').waitFor();
    const rows = await shownRows(env.page);
    expect(rows).toHaveLength(9);
    expect(rows.every((row) => !row.startsWith(' '))).toBe(true);
    expect(await rowLocator(env.page, 'tree-p-kid1-g').getByText('child', { exact: true }).count()).toBe(1);
    // A nested child open when the list goes back to nesting: its ancestors expand to show it.
    await rowLocator(env.page, 'tree-p-kid1-g').click();
    await env.page.locator('[data-testid="session-view"][data-session-id="tree-p-kid1-g"]').waitFor();
    await env.page.getByText('Show subagents in the list, not nested').click();
    await expect
      .poll(() => rowLocator(env.page, 'tree-p-kid1-g').getAttribute('data-depth'), { timeout: UI_TIMEOUT })
      .toBe('2');
    expect(await rowLocator(env.page, 'tree-p-kid1-g').getAttribute('aria-selected')).toBe('true');
    expect(await rowLocator(env.page, 'tree-p').getAttribute('aria-expanded')).toBe('true');
  });

  it('sorts by the last prompt, else by creation, and says which in the row', async () => {
    await home(env);
    await rowLocator(env.page, 'codex-1').waitFor();
    await expect
      .poll(() => shownRows(env.page), { timeout: UI_TIMEOUT })
      .toEqual(['sort-a', 'sort-b', 'sort-c', 'tree-p', 'lost-kid', 'codex-1']);
    const activity = (id: string) => rowLocator(env.page, id).getByTestId('activity');
    expect(await activity('sort-a').textContent()).toBe('last prompt 10 min ago');
    expect(await activity('sort-a').getAttribute('data-source')).toBe('last-prompt');
    expect(await activity('sort-b').textContent()).toBe('created 2 h ago');
    expect(await activity('sort-b').getAttribute('title')).toContain(
      'no prompt yet, so the list sorts by creation time',
    );
    expect(await activity('sort-c').textContent()).toBe('last prompt 3 h ago');
    // The absolute time is in the title attribute.
    expect(await activity('sort-a').getAttribute('title')).toContain(
      new Date(t - 10 * MIN).getFullYear().toString(),
    );
    await env.shot('list-02-sorted');
    // A new prompt moves the oldest-prompted session to the top (the list refreshes by itself).
    const { outcome } = await env.runtime.agents.prompt(SessionId('sort-c'), 'Bring this one to the top');
    await outcome;
    await expect.poll(async () => (await shownRows(env.page))[0], { timeout: UI_TIMEOUT }).toBe('sort-c');
    await expect
      .poll(() => activity('sort-c').textContent(), { timeout: UI_TIMEOUT })
      .toBe('last prompt just now');
  });

  it('filters by project and by harness', async () => {
    await home(env);
    await rowLocator(env.page, 'codex-1').waitFor();
    const choose = async (label: string, option: string): Promise<void> => {
      await env.page.locator(`input[aria-label="${label}"]`).click();
      await env.page.getByRole('option', { name: option, exact: true }).click();
    };
    await choose('Filter by project', '/proj/alpha');
    await expect.poll(() => shownRows(env.page), { timeout: UI_TIMEOUT }).toEqual(['sort-a', 'sort-b']);
    await env.shot('list-03-project-filter');
    // The filter is in the address: a reload keeps it.
    expect(new URL(env.page.url()).searchParams.get('cwd')).toBe('/proj/alpha');
    await env.page.reload();
    await waitConnectionState(env.page, 'open');
    await expect.poll(() => shownRows(env.page), { timeout: UI_TIMEOUT }).toEqual(['sort-a', 'sort-b']);
    expect(await env.page.locator('input[aria-label="Filter by project"]').inputValue()).toBe('/proj/alpha');
    await home(env);
    await rowLocator(env.page, 'codex-1').waitFor();
    await choose('Filter by harness', 'Codex');
    await expect.poll(() => shownRows(env.page), { timeout: UI_TIMEOUT }).toEqual(['codex-1']);
    await choose('Filter by harness', 'Strand');
    await expect
      .poll(async () => (await shownRows(env.page)).includes('codex-1'), { timeout: UI_TIMEOUT })
      .toBe(false);
    expect(await shownRows(env.page)).toContain('tree-p');
    // Both at once: nothing is Codex in /proj/alpha.
    await choose('Filter by project', '/proj/alpha');
    await choose('Filter by harness', 'Codex');
    await env.page.getByTestId('session-list-empty').waitFor();
    expect(await env.page.getByTestId('session-list-empty').textContent()).toBe(
      'No sessions match the filters.',
    );
  });

  it('is driven by the keyboard: arrows move, Right and Left expand and collapse, Home, End, Enter opens', async () => {
    await home(env);
    await rowLocator(env.page, 'codex-1').waitFor();
    const list = env.page.getByRole('tree', { name: 'Sessions' });
    const active = async (): Promise<string | null> =>
      env.page.locator('[data-testid="session-row"][data-active="true"]').getAttribute('data-session-id');
    // The order depends on what earlier tests prompted: take it from the page.
    await list.focus();
    const order = await shownRows(env.page);
    await expect.poll(active, { timeout: UI_TIMEOUT }).toBe(order[0]);
    for (let i = 0; i < order.indexOf('tree-p'); i++) await env.page.keyboard.press('ArrowDown');
    await expect.poll(active, { timeout: UI_TIMEOUT }).toBe('tree-p');
    expect(await list.getAttribute('aria-activedescendant')).toBe('session-row-tree-p');
    await env.page.keyboard.press('ArrowRight');
    await rowLocator(env.page, 'tree-p-kid2').waitFor();
    expect(await rowLocator(env.page, 'tree-p').getAttribute('aria-expanded')).toBe('true');
    await env.page.keyboard.press('ArrowRight');
    await expect.poll(active, { timeout: UI_TIMEOUT }).toBe('tree-p-kid2');
    await env.page.keyboard.press('ArrowLeft');
    await expect.poll(active, { timeout: UI_TIMEOUT }).toBe('tree-p');
    await env.page.keyboard.press('ArrowLeft');
    await expect.poll(() => rowLocator(env.page, 'tree-p-kid2').count(), { timeout: UI_TIMEOUT }).toBe(0);
    await env.page.keyboard.press('End');
    await expect.poll(active, { timeout: UI_TIMEOUT }).toBe('codex-1');
    await env.page.keyboard.press('Home');
    await expect.poll(active, { timeout: UI_TIMEOUT }).toBe(order[0]);
    for (let i = 0; i < order.indexOf('sort-b'); i++) await env.page.keyboard.press('ArrowDown');
    await expect.poll(active, { timeout: UI_TIMEOUT }).toBe('sort-b');
    await env.page.keyboard.press('Enter');
    await env.page.locator('[data-testid="session-view"][data-session-id="sort-b"]').waitFor();
    expect(await rowLocator(env.page, 'sort-b').getAttribute('aria-selected')).toBe('true');
    // Accessible names: the tree and each row say what they are.
    expect(await rowLocator(env.page, 'sort-b').getAttribute('aria-label')).toBe('Sort B, created 2 h ago');
  });
});

describe('10,000 sessions in the list', { timeout: 300_000 }, () => {
  let env: BrowserHost;
  const COUNT = 10_000;
  const base = Date.UTC(2026, 0, 1);
  const id = (i: number): string => `bulk-${String(i).padStart(5, '0')}`;

  beforeAll(async () => {
    env = await startBrowserHost({
      corpus: async (corpus: CorpusWriter) => {
        // One title event each (a session without events is not listed); 8 writers at once.
        let next = 0;
        await Promise.all(
          Array.from({ length: 8 }, async () => {
            while (next < COUNT) {
              const i = next++;
              await corpus.write(newSessionHeader({ id: SessionId(id(i)), createdAt: base + i * MIN }), [
                [{ type: 'session/title', data: { title: `Bulk ${i}` } }],
              ]);
            }
          }),
        );
      },
    });
  }, 300_000);

  afterAll(async () => {
    await env?.close();
  }, 60_000);

  it('renders only a bounded window of rows and scrolls to the last one', async () => {
    await home(env);
    // Newest first: the last created is the first row.
    await rowLocator(env.page, id(COUNT - 1)).waitFor();
    const inDom = (): Promise<number> => env.page.locator('[data-testid="session-row"]').count();
    expect(await inDom()).toBeLessThan(100);
    // Pages are read as the list scrolls (not all at once): to its end, every row is read.
    const list = await scrollListToEnd(env.page, id(0));
    await rowLocator(env.page, id(0)).waitFor();
    expect(await list.getAttribute('data-row-count')).toBe(String(COUNT));
    expect(await inDom()).toBeLessThan(100);
    await env.shot('list-04-10k-bottom');
    // The keyboard reaches both ends too, scrolling the active row into view.
    await list.focus();
    await env.page.keyboard.press('Home');
    await rowLocator(env.page, id(COUNT - 1)).waitFor();
    await env.page.keyboard.press('End');
    await expect
      .poll(
        () =>
          env.page.locator('[data-testid="session-row"][data-active="true"]').getAttribute('data-session-id'),
        {
          timeout: UI_TIMEOUT,
        },
      )
      .toBe(id(0));
    expect(await inDom()).toBeLessThan(100);
  });
});
