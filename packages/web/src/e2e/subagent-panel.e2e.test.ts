/**
 * Browser test (tier: e2e) of the subagent panel: it lists again when the host says a child of
 * the open session appeared or settled (`follow.subagents`), without a reload; a `corrupt` or
 * `unavailable` child says why in words; Retry keeps the tree as it was (no flash to empty), and a
 * listing that fails keeps the old rows and says so. The agent is the built-in scripted model
 * (its `spawn a one-shot agent "…": …` rule calls `spawn_agent`); the unavailable child is a real
 * log with a damaged line; the failing listing is the real host's answer replaced at the page's
 * WebSocket (playwright's `routeWebSocket`), the one fault this test injects.
 *
 * Each test has a parent session of its own with the same three children (an old helper, a broken
 * descriptor, a damaged log), and starts on a freshly loaded page showing it with no fault set: what
 * one test changes (a mended log, a spawned child, a refused listing) is never what another assumes,
 * whatever order they run in.
 */
import { copyFile, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openJsonlPersistence, persistenceWriter } from '@strand/persistence';
import {
  Session,
  SessionId,
  newSessionHeader,
  type SessionEventInput,
  type SessionHeader,
} from '@strand/session';
import { descriptorEvent } from '@strand/subagent';
import {
  openSession,
  startBrowserHost,
  UI_TIMEOUT,
  type BrowserHost,
  type CorpusWriter,
} from './testing/harness.js';

const BASE = Date.UTC(2026, 10, 1);

/** One test's parent session and its children's ids. */
interface Family {
  readonly parent: string;
  readonly old: string;
  readonly broken: string;
  readonly damaged: string;
}
const family = (name: string): Family => ({
  parent: `panel-${name}`,
  old: `panel-${name}-old`,
  broken: `panel-${name}-broken`,
  damaged: `panel-${name}-damaged`,
});
/** A family per test, so no test sees another's changes. */
const FAMILIES = {
  diagnostics: family('diagnostics'),
  refused: family('refused'),
  mended: family('mended'),
  spawned: family('spawned'),
} as const;

let env: BrowserHost;
/** Each damaged child's log as written, and where the host reads it, by the child's id. */
const damagedLogs = new Map<string, { file: string; intact: string }>();
/** While set, the page's `subagent.list` calls are answered with this error instead of the host's. */
let refuseLists: { code: string; message: string } | null = null;

const turn = (text: string): SessionEventInput[] => [
  { type: 'turn/start', data: {} },
  { type: 'user/message', data: { content: text, author: 'human' } },
  { type: 'step/start', data: {} },
  { type: 'assistant/message', data: { content: `Done: ${text}` } },
  { type: 'step/end', data: {} },
  { type: 'turn/end', data: { reason: 'completed' } },
];
const childHeader = (parent: string, id: string, at: number): SessionHeader =>
  newSessionHeader({
    id: SessionId(id),
    parentSession: SessionId(parent),
    origin: 'subagent',
    delegationDepth: 1,
    createdAt: at,
    cwd: '/home/demo',
  });

/**
 * A child whose log has a bad line before later valid ones: its header lists, its body read fails
 * (corruption is reported, never skipped), so the listing row is `unavailable`. Written as a plain
 * `.jsonl` log (readable beside the `.zst` ones) so one line can be damaged and later mended.
 */
async function writeDamagedChild(
  dataDir: string,
  parent: string,
  id: string,
): Promise<{ file: string; intact: string }> {
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'strand-panel-log-'));
  try {
    const persistence = await openJsonlPersistence({ root: scratch, compression: 'none' });
    const header = childHeader(parent, id, BASE + 300);
    const { incarnation } = await persistence.create({ header });
    const session = new Session({ header, incarnation, writer: persistenceWriter(persistence, header.id) });
    await session.append([descriptorEvent({ version: 2, mode: 'one-shot', label: 'mended' })]);
    await session.append(turn('read the damaged notes'));
    await persistence.close();
    const [name] = await readdir(path.join(scratch, 'sessions'));
    const file = path.join(dataDir, 'sessions', name!);
    await copyFile(path.join(scratch, 'sessions', name!), file);
    const intact = await readFile(file, 'utf8');
    const lines = intact.split('\n');
    lines[3] = '{"type":"user/mess'; // an event line in the middle, valid lines after it
    await writeFile(file, lines.join('\n'));
    return { file, intact };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

const tree = () => env.page.getByTestId('subagent-tree');
const treeRow = (id: string) => tree().locator(`[data-testid="tree-row"][data-session-id="${id}"]`);
const diagnostic = (id: string) => tree().locator(`[data-testid="tree-diagnostic"][data-session-id="${id}"]`);
const labels = async (): Promise<string[]> => tree().getByTestId('tree-label').allTextContents();

/**
 * Watches the tree in the page from now on: records every moment the given rows were not all on
 * screen or a "Loading…" / "No subagents." showed — a flash the person would see.
 */
async function watchForFlash(page: Page, keep: readonly string[]): Promise<() => Promise<string[]>> {
  await page.evaluate((ids) => {
    const target = document.querySelector('[data-testid="subagent-tree"]')!;
    const flashes: string[] = [];
    const check = (): void => {
      for (const id of ids)
        if (target.querySelector(`[data-session-id="${id}"]`) === null) flashes.push(`${id} gone`);
      if (target.querySelector('[data-testid="tree-loading"], [data-testid="tree-empty"]') !== null)
        flashes.push('loading or empty');
    };
    const observer = new MutationObserver(check);
    observer.observe(target, { childList: true, subtree: true, attributes: true, characterData: true });
    (window as unknown as { stopWatch: () => string[] }).stopWatch = () => {
      check();
      observer.disconnect();
      return flashes;
    };
  }, keep);
  return () => page.evaluate(() => (window as unknown as { stopWatch: () => string[] }).stopWatch());
}

/** Writes one test's parent session and its three children. */
async function writeFamily(corpus: CorpusWriter, { parent, old, broken, damaged }: Family): Promise<void> {
  await corpus.write(
    newSessionHeader({
      id: SessionId(parent),
      cwd: '/home/demo',
      createdAt: BASE,
      agentPreset: 'general',
    }),
    [
      [{ type: 'model/selection', data: { provider: 'strand', model: 'scripted' } }],
      [{ type: 'session/title', data: { title: `Panel ${parent}` } }],
      turn('look around'),
    ],
  );
  await corpus.write(childHeader(parent, old, BASE + 100), [
    [descriptorEvent({ version: 2, mode: 'one-shot', label: 'old-helper' })],
    turn('count the tests'),
  ]);
  // A descriptor without its required fields: the identity folds to nothing, a settled child.
  await corpus.write(childHeader(parent, broken, BASE + 200), [
    [{ type: 'subagent/descriptor', data: { version: 2, mode: 'continuable' } }],
    turn('lost'),
  ]);
  damagedLogs.set(damaged, await writeDamagedChild(corpus.dataDir, parent, damaged));
}

describe('the subagent panel in Chromium', { timeout: 180_000 }, () => {
  beforeAll(async () => {
    env = await startBrowserHost({
      corpus: async (corpus) => {
        for (const members of Object.values(FAMILIES)) await writeFamily(corpus, members);
      },
    });
    // The page's socket goes through the real host; only a refused listing is answered here.
    await env.page.routeWebSocket(/\/rpc/, (route) => {
      const server = route.connectToServer();
      route.onMessage((message) => {
        const request = JSON.parse(String(message)) as { id?: number; method?: string };
        if (refuseLists !== null && request.method === 'subagent.list') {
          route.send(
            JSON.stringify({
              jsonrpc: '2.0',
              id: request.id,
              error: { code: -33500, message: refuseLists.message, data: { code: refuseLists.code } },
            }),
          );
          return;
        }
        server.send(message);
      });
    });
  }, 180_000);

  afterAll(async () => {
    await env?.close();
  }, 60_000);

  /** Loads the page afresh and opens the test's parent until its panel lists. */
  async function openFamily({ parent, old }: Family): Promise<void> {
    await env.page.goto(env.host.url);
    await openSession(env.page, parent);
    await treeRow(old).waitFor();
  }

  beforeEach(() => {
    refuseLists = null; // a test that failed half-way may have left it set
  });

  it('says why a corrupt or unavailable child has no identity, in words', async () => {
    const { broken, damaged } = FAMILIES.diagnostics;
    await openFamily(FAMILIES.diagnostics);
    await diagnostic(broken).waitFor();
    await diagnostic(damaged).waitFor();
    expect(await diagnostic(broken).getAttribute('data-reason')).toBe('corrupt');
    expect(await diagnostic(broken).getByTestId('tree-diagnostic-words').textContent()).toBe(
      'its subagent descriptor is missing or unreadable',
    );
    expect(await diagnostic(damaged).getAttribute('data-reason')).toBe('unavailable');
    expect(await diagnostic(damaged).getByTestId('tree-diagnostic-words').textContent()).toBe(
      'its log could not be read',
    );
    await env.shot('subagent-panel-diagnostics');
  });

  it('a listing that fails keeps the old rows and says so; Retry then lists them again', async () => {
    const { old, broken, damaged } = FAMILIES.refused;
    await openFamily(FAMILIES.refused);
    await diagnostic(damaged).waitFor();
    const stop = await watchForFlash(env.page, [old, broken, damaged]);
    refuseLists = { code: 'SUBAGENT_CONTROL_QUERY_FAILED', message: 'the corpus could not be listed' };
    await diagnostic(broken).getByTestId('tree-retry').click();
    const failure = tree().getByTestId('tree-refresh-error');
    await failure.waitFor();
    expect(await failure.textContent()).toContain('the corpus could not be listed');
    expect(await failure.textContent()).toContain('showing the last list');
    expect(await labels()).toEqual(['old-helper']);
    refuseLists = null;
    await tree().getByTestId('tree-refresh-retry').click();
    await failure.waitFor({ state: 'detached' });
    expect(await stop()).toEqual([]);
  });

  it('Retry on an unavailable child lists again and keeps the tree as it was meanwhile', async () => {
    const { old, broken, damaged } = FAMILIES.mended;
    await openFamily(FAMILIES.mended);
    await diagnostic(damaged).waitFor();
    const log = damagedLogs.get(damaged)!;
    await writeFile(log.file, log.intact); // mended: the next read succeeds
    const stop = await watchForFlash(env.page, [old, broken, damaged]);
    await diagnostic(damaged).getByTestId('tree-retry').click();
    await treeRow(damaged).waitFor();
    expect(await labels()).toEqual(['old-helper', 'mended']);
    expect(await diagnostic(broken).count()).toBe(1);
    expect(await stop()).toEqual([]);
  });

  it('shows a child spawned by the open session without a reload, and when it settles', async () => {
    const { parent, old, broken, damaged } = FAMILIES.spawned;
    await openFamily(FAMILIES.spawned);
    await diagnostic(damaged).waitFor();
    await env.page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
    const stop = await watchForFlash(env.page, [old, broken, damaged]);
    const view = env.page.locator(`[data-testid="session-view"][data-session-id="${parent}"]`);
    await view.getByTestId('composer-input').fill('spawn a one-shot agent "scout": count the files');
    await view.getByTestId('composer-send').click();
    await tree().getByTestId('tree-label').filter({ hasText: 'scout' }).waitFor();
    const scout = tree().locator('[data-testid="tree-row"]').filter({ hasText: 'scout' });
    await scout.filter({ hasText: 'inactive' }).waitFor();
    // Appended after the children the corpus holds (ordered by creation), which all stayed.
    expect((await labels()).at(-1)).toBe('scout');
    expect(await labels()).toContain('old-helper');
    expect(await stop()).toEqual([]);
    expect(await env.page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(
      true,
    );
    await env.shot('subagent-panel-spawned');

    // The row opens the child (read-only: only its parent drives it).
    const id = await scout.getAttribute('data-session-id');
    await scout.getByTestId('tree-open').click();
    await env.page
      .locator(`[data-testid="session-view"][data-session-id="${id}"] [data-testid="read-only-note"]`)
      .waitFor({ timeout: UI_TIMEOUT });
  });
});
