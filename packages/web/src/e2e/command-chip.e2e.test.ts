/**
 * Browser tests (tier: e2e) of commands and terminal output in the transcript: a slash command
 * as a chip with its output collapsed beneath, and command and tool output drawn as terminal
 * text — coloured spans, never a raw escape — in Debian's Chromium against an in-process host.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionId, newSessionHeader, type SessionEventInput } from '@strand/session';
import { openSession, startBrowserHost, UI_TIMEOUT, type BrowserHost } from './testing/harness.js';

let env: BrowserHost;

const view = () => env.page.locator('[data-testid="session-view"][data-session-id="cmd-1"]');
/** Each test starts on a fresh load of the session: none relies on the page another one left. */
async function freshView(): Promise<void> {
  await env.page.goto(env.host.url);
  await openSession(env.page, 'cmd-1');
}
// eslint-disable-next-line no-control-regex -- the escape characters no page may show
const ESCAPE = /[\u001b\u009b]|\[2m|\[22m|\[31m/;

describe('commands and terminal output in Chromium', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    env = await startBrowserHost({
      corpus: async ({ write }) => {
        const header = newSessionHeader({
          id: SessionId('cmd-1'),
          cwd: '/home/demo',
          createdAt: Date.UTC(2026, 10, 1),
        });
        const events: SessionEventInput[] = [
          { type: 'session/title', data: { title: 'Commands' } },
          { type: 'turn/start', data: {} },
          { type: 'user/message', data: { author: 'human', content: 'Run the tests.' } },
          {
            type: 'assistant/message',
            data: { content: 'Running them.', toolCalls: [{ id: 'c1', name: 'bash', arguments: '{}' }] },
          },
          { type: 'tool/call', data: { callId: 'c1', name: 'bash', arguments: '{"command":"npm test"}' } },
          {
            type: 'tool/result',
            data: {
              callId: 'c1',
              content: '\u001b[1;31mFAIL\u001b[0m src/a.test.ts\n\u001b[32m3 passed\u001b[39m',
            },
          },
          { type: 'turn/end', data: { reason: 'completed' } },
          { type: 'turn/start', data: {} },
          { type: 'session/command', data: { name: 'compact' } },
          {
            type: 'session/command-output',
            data: { text: '\u001b[2mCompacted (ctrl+o to see full summary)\u001b[22m', stream: 'stdout' },
          },
          { type: 'session/command', data: { name: 'model', args: 'opus' } },
        ];
        await write(header, [events]);
      },
    });
  }, 180_000);
  afterAll(() => env?.close(), 60_000);

  it('shows a command as a chip, /name args, its output collapsed beneath in terminal colours', async () => {
    await freshView();
    const chips = view().locator('[data-testid="command-chip"]');
    await chips.first().waitFor({ timeout: UI_TIMEOUT });
    expect(await view().locator('[data-testid="command-line"]').allTextContents()).toEqual([
      '/compact',
      '/model opus',
    ]);
    // The command is no person's message: no "User" bubble holds it.
    expect(await view().locator('[data-testid="message-author"]').allTextContents()).not.toContainEqual(
      expect.stringMatching(/compact/),
    );
    const compact = chips.first();
    const output = compact.locator('[data-testid="command-output"]');
    expect(await output.evaluate((details) => (details as HTMLDetailsElement).open)).toBe(false);
    await output.locator('summary').click();
    const terminal = output.locator('[data-testid="terminal-text"]');
    await terminal.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    expect(await terminal.textContent()).toBe('Compacted (ctrl+o to see full summary)');
    const dim = terminal.locator('[data-testid="terminal-span"]');
    expect(await dim.evaluate((span) => getComputedStyle(span).opacity)).toBe('0.6');
    // The second command printed nothing: no output to open.
    expect(await chips.nth(1).locator('[data-testid="command-output"]').count()).toBe(0);
    await env.shot('command-chip');
  });

  it('draws a tool result as terminal text: coloured spans, no escape characters', async () => {
    await freshView();
    const card = view().locator('[data-testid="tool-card"][data-tool="bash"]');
    await card.locator('[data-testid="tool-summary"]').click();
    const terminal = card.locator('[data-testid="tool-result"] [data-testid="terminal-text"]');
    await terminal.waitFor({ timeout: UI_TIMEOUT });
    expect(await terminal.textContent()).toBe('FAIL src/a.test.ts\n3 passed');
    const spans = terminal.locator('[data-testid="terminal-span"]');
    expect(await spans.allTextContents()).toEqual(['FAIL', '3 passed']);
    expect(await spans.first().evaluate((span) => getComputedStyle(span).color)).toBe('rgb(187, 0, 0)');
    expect(await spans.first().evaluate((span) => getComputedStyle(span).fontWeight)).toBe('700');
    expect(await spans.nth(1).evaluate((span) => getComputedStyle(span).color)).toBe('rgb(0, 187, 0)');
    expect(await view().textContent()).not.toMatch(ESCAPE);
  });
});
