/**
 * Browser test (tier: e2e) of replies as they are written: `follow.draft` shown in place, then
 * swapped for the `assistant/message`; and the running/idle badge, in the view and the list.
 * The model is a local OpenAI-compatible endpoint the test paces chunk by chunk (real SSE through
 * the real adapter), so nothing depends on timing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionId, newSessionHeader } from '@strand/session';
import { mockChatServer, pacedAnswer, type MockChatServer } from '@strand/test-support';
import { openSession, startBrowserHost, UI_TIMEOUT, type BrowserHost } from './testing/harness.js';

const LOCAL = { provider: 'local', model: 'tiny-1' };
const CHUNKS = ['Writing the **first** part', ' and then', ' the rest.'];

let env: BrowserHost;
let server: MockChatServer;
/** The endpoint's answer: each `next()` releases a chunk, the last one the end of the answer. */
const answer = pacedAnswer(CHUNKS, { input: 9, output: 9 }, { holdEnd: true });

const view = () => env.page.locator('[data-testid="session-view"][data-session-id="stream-1"]');
const row = () => env.page.locator('[data-testid="session-row"][data-session-id="stream-1"]');
const draft = () => view().getByTestId('draft');
const messages = () => view().locator('[data-testid="event"][data-type="assistant/message"]');

describe('streaming replies in Chromium', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    server = await mockChatServer();
    server.handle(answer.handler);
    env = await startBrowserHost({
      runtime: { models: [{ ...LOCAL, baseUrl: server.baseUrl }], defaultModel: LOCAL },
      corpus: async (corpus) => {
        const header = newSessionHeader({
          id: SessionId('stream-1'),
          cwd: '/home/demo',
          createdAt: Date.UTC(2026, 10, 1),
        });
        await corpus.write(header, [
          [{ type: 'session/title', data: { title: 'Streaming' } }],
          [
            { type: 'turn/start', data: {} },
            { type: 'user/message', data: { content: 'hello', author: 'human' } },
            { type: 'step/start', data: {} },
            { type: 'assistant/message', data: { content: 'Hi.' } },
            { type: 'step/end', data: {} },
            { type: 'turn/end', data: { reason: 'completed' } },
          ],
        ]);
      },
    });
    await env.page.goto(env.host.url);
    await row().waitFor();
  }, 120_000);

  afterAll(async () => {
    answer.releaseAll();
    await env?.close();
    await server?.close();
  }, 60_000);

  it('shows the reply in place while it is written, then swaps in the message', async () => {
    await openSession(env.page, 'stream-1');
    await view().getByTestId('view-idle').waitFor();
    await view().getByTestId('composer-input').fill('write something');
    await view().getByTestId('composer-send').click();
    answer.next();
    await draft().locator('strong', { hasText: 'first' }).waitFor();
    // The draft is not an event: the step has no message yet, and the badge says a turn runs.
    expect(await messages().count()).toBe(1);
    expect(await draft().getAttribute('data-testid')).toBe('draft');
    await view().getByTestId('view-running').waitFor();
    await expect.poll(() => row().getAttribute('data-state'), { timeout: UI_TIMEOUT }).toBe('running');
    await row().getByTestId('running-marker').waitFor();

    answer.next();
    answer.next();
    await draft().filter({ hasText: 'and then the rest.' }).waitFor();
    expect(await messages().count()).toBe(1);
    const step = Number(await draft().getAttribute('data-step'));
    // The step/start it belongs to is held by the view (drafts never point past the events).
    expect(
      await view()
        .locator(`[data-testid="event"][data-seq="${step + 1}"]`)
        .count(),
    ).toBe(1);

    answer.next();
    await expect.poll(() => messages().count(), { timeout: UI_TIMEOUT }).toBe(2);
    await expect.poll(() => draft().count(), { timeout: UI_TIMEOUT }).toBe(0);
    await messages().last().filter({ hasText: 'Writing the first part and then the rest.' }).waitFor();
    await view().getByTestId('view-idle').waitFor();
  });

  it('the list says running only while a turn runs, never "live" because a page holds the session', async () => {
    // Attached and idle, as while some page holds it open interactively: session.list says live.
    const lease = await env.runtime.agents.activate(SessionId('stream-1'));
    expect(env.runtime.services.store.has(SessionId('stream-1'))).toBe(true);
    await env.page.reload();
    await openSession(env.page, 'stream-1');
    expect(await row().getAttribute('data-state')).toBe('idle');
    await view().getByTestId('view-idle').waitFor();
    expect(await row().getByTestId('running-marker').count()).toBe(0);
    expect(await row().textContent()).not.toMatch(/\blive\b/i);
    expect(await view().textContent()).not.toMatch(/\blive\b/i);
    lease.release();
  });
});
