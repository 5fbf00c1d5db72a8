/**
 * Browser test (tier: e2e) of a session whose log stops accepting writes mid-turn: the page says
 * "Session stopped" and keeps saying it after the session went cold, and the step's unsaved draft
 * leaves the screen and does not come back. The model is a local endpoint the test paces chunk by
 * chunk; the fault is injected at the persistence the host writes through.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionId, newSessionHeader } from '@strand/session';
import { FaultyPersistence, mockChatServer, pacedAnswer, type MockChatServer } from '@strand/test-support';
import { openSession, startBrowserHost, UI_TIMEOUT, type BrowserHost } from './testing/harness.js';

const LOCAL = { provider: 'local', model: 'tiny-1' };
const ID = 'stops-1';

let env: BrowserHost;
let server: MockChatServer;
let diskBroken = false;
const answer = pacedAnswer(
  ['Unsaved text', ' that goes on', ' and on.'],
  { input: 9, output: 9 },
  { holdEnd: true },
);

const view = () => env.page.locator(`[data-testid="session-view"][data-session-id="${ID}"]`);
const draft = () => view().getByTestId('draft');
const banner = () => view().getByTestId('session-stopped');

describe('a session that stops in Chromium', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    server = await mockChatServer();
    server.handle(answer.handler);
    env = await startBrowserHost({
      runtime: {
        models: [{ ...LOCAL, baseUrl: server.baseUrl }],
        defaultModel: LOCAL,
        wrapPersistence: (inner) => new FaultyPersistence(inner, () => (diskBroken ? 'fail' : undefined)),
      },
      corpus: async (corpus) => {
        const header = newSessionHeader({
          id: SessionId(ID),
          cwd: '/home/demo',
          createdAt: Date.UTC(2026, 10, 1),
        });
        await corpus.write(header, [[{ type: 'session/title', data: { title: 'Stops' } }]]);
      },
    });
    await env.page.goto(env.host.url);
  }, 120_000);

  afterAll(async () => {
    answer.releaseAll();
    await env?.close();
    await server?.close();
  }, 60_000);

  it('shows "Session stopped" until the session reopens, and drops the unsaved draft', async () => {
    await openSession(env.page, ID);
    await view().getByTestId('view-idle').waitFor();
    await view().getByTestId('composer-input').fill('write on');
    await view().getByTestId('composer-send').click();
    answer.next();
    await draft().filter({ hasText: 'Unsaved text' }).waitFor();

    // The log stops accepting writes; the next write (a rename here) finds out and stops the session.
    diskBroken = true;
    const live = env.runtime.services.store.get(SessionId(ID));
    await expect(live?.append({ type: 'session/title', data: { title: 'Renamed' } })).rejects.toThrow();
    await banner().waitFor();
    await expect.poll(() => draft().count(), { timeout: UI_TIMEOUT }).toBe(0);

    // The turn is aborted and the session goes cold: the banner stays, no draft comes back.
    answer.next();
    answer.next();
    await env.runtime.agents.whenSettled();
    await view().getByTestId('view-idle').waitFor();
    expect(await banner().isVisible()).toBe(true);
    expect(await draft().count()).toBe(0);
    await env.shot('session-stopped');

    // Fixed: the next prompt reopens the session from disk, and the banner goes.
    diskBroken = false;
    await view().getByTestId('composer-input').fill('again');
    await view().getByTestId('composer-send').click();
    await expect.poll(() => banner().count(), { timeout: UI_TIMEOUT }).toBe(0);
    answer.releaseAll();
  });
});
