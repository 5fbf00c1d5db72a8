/**
 * Browser test (tier: e2e): time to first paint of a 50k-event session's view, printed (not
 * asserted: a wall-clock bound would flake on a shared machine); the view must show its tail.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workloadBatches } from '@strand/workload';
import { SessionId, newSessionHeader } from '@strand/session';
import { startBrowserHost, UI_TIMEOUT, type BrowserHost } from './testing/harness.js';

const EVENTS = 50_001;
let env: BrowserHost;
let lastSeq = -1;

describe('first paint of a 50k-event session in Chromium', { timeout: 180_000 }, () => {
  beforeAll(async () => {
    env = await startBrowserHost({
      corpus: async (corpus) => {
        const header = newSessionHeader({
          id: SessionId('demo-long'),
          cwd: '/home/demo',
          createdAt: Date.UTC(2026, 10, 1),
        });
        const session = await corpus.write(header, [
          [{ type: 'session/title', data: { title: 'A long session' } }],
        ]);
        for (const batch of workloadBatches(30, EVENTS, 2100)) await session.append(batch);
        lastSeq = session.events.length - 1;
      },
    });
    await env.page.goto(env.host.url);
    await env.page.locator('[data-testid="session-row"][data-session-id="demo-long"]').waitFor();
  }, 180_000);

  afterAll(async () => {
    await env?.close();
  }, 60_000);

  it('paints the tail of demo-long and prints how long it took', async () => {
    const row = env.page.locator('[data-testid="session-row"][data-session-id="demo-long"]');
    const last = env.page.locator(
      `[data-testid="session-view"][data-session-id="demo-long"] [data-seq="${lastSeq}"]`,
    );
    const started = await env.page.evaluate(() => performance.now());
    await row.click();
    await last.waitFor({ timeout: UI_TIMEOUT });
    const painted = await env.page.evaluate(
      () => new Promise<number>((resolve) => requestAnimationFrame(() => resolve(performance.now()))),
    );
    const ms = Math.round(painted - started);
    console.log(`first paint of demo-long (${lastSeq + 1} events): ${ms} ms`);
    expect(await last.count()).toBe(1);
  });
});
