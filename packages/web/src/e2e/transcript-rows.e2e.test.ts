/**
 * Browser tests (tier: e2e) of two transcript rows real imported sessions showed wrong (issue 40):
 * a streamed chunk that carried only tool calls (drawn as its tool cards, never as an empty
 * "Assistant" bubble), and a subagent child's `subagent/descriptor` (its identity line, "subagent
 * of <parent> · <label>", never JSON) — in Debian's Chromium against an in-process host.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionId, newSessionHeader, type SessionEventInput } from '@strand/session';
import { descriptorEvent, SUBAGENT_DESCRIPTOR_EVENT, SUBAGENT_IDENTITY_KEY } from '@strand/subagent';
import { DESCRIPTOR_EVENT, IDENTITY_KEY } from '../app/transcript/descriptor-line.js';
import { startBrowserHost, subagentHeader, UI_TIMEOUT, type BrowserHost } from './testing/harness.js';

const PARENT = 'rows-parent';
const CHILD = 'rows-child';
const BASE = Date.UTC(2026, 10, 1);

/**
 * A reply streamed in chunks, as Claude Code writes it: text, then a chunk with only two tool
 * calls (each drawn by its own `tool/call` row), then a chunk whose call has no `tool/call` row
 * (only its bubble can show it), then more text. The comments are the seqs.
 */
const STREAMED: SessionEventInput[] = [
  { type: 'session/title', data: { title: 'Review the writer' } }, // 0
  { type: 'turn/start', data: {} }, // 1
  { type: 'user/message', data: { author: 'human', content: 'Why is flush slow?' } }, // 2
  { type: 'step/start', data: {} }, // 3
  { type: 'assistant/message', data: { content: 'Let me look.' } }, // 4
  {
    type: 'assistant/message',
    data: {
      content: '',
      toolCalls: [
        { id: 'c1', name: 'read', arguments: '{"path":"src/writer.ts"}' },
        { id: 'c2', name: 'grep', arguments: '{"pattern":"fsync"}' },
      ],
    },
  }, // 5
  { type: 'tool/call', data: { callId: 'c1', name: 'read', arguments: '{"path":"src/writer.ts"}' } }, // 6
  { type: 'tool/result', data: { callId: 'c1', content: 'export function flush() {}' } }, // 7
  { type: 'tool/call', data: { callId: 'c2', name: 'grep', arguments: '{"pattern":"fsync"}' } }, // 8
  { type: 'tool/result', data: { callId: 'c2', content: 'src/writer.ts:3' } }, // 9
  {
    type: 'assistant/message',
    data: { content: '', toolCalls: [{ id: 'c3', name: 'bash', arguments: '{"command":"npm test"}' }] },
  }, // 10
  { type: 'step/end', data: {} }, // 11
  { type: 'step/start', data: {} }, // 12
  { type: 'assistant/message', data: { content: 'Found it: one fsync per append.' } }, // 13
  { type: 'step/end', data: {} }, // 14
  { type: 'turn/end', data: { reason: 'completed' } }, // 15
];

/** The child's log: its descriptor (seq 0), then the parent's one prompt. */
const CHILD_LOG: SessionEventInput[] = [
  descriptorEvent({ version: 2, mode: 'one-shot', label: 'reviewer' }),
  { type: 'turn/start', data: {} },
  { type: 'user/message', data: { author: 'agent', content: 'Review `src/writer.ts`.' } },
  { type: 'turn/end', data: { reason: 'completed' } },
];

let env: BrowserHost;

const view = (id: string) => env.page.locator(`[data-testid="session-view"][data-session-id="${id}"]`);
const rows = (id: string, type: string) =>
  view(id).locator(`.strand-transcript > [data-testid="event"][data-type="${type}"]`);

async function open(id: string, seq?: number): Promise<void> {
  await env.page.goto(`${env.host.url}/sessions/${id}${seq === undefined ? '' : `?seq=${seq}`}`);
  await view(id).locator('[data-testid="event"]').first().waitFor({ timeout: UI_TIMEOUT });
}

describe('transcript rows of streamed chunks and subagent children in Chromium', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    env = await startBrowserHost({
      prefix: 'strand-web-rows-',
      corpus: async ({ write }) => {
        await write(newSessionHeader({ id: SessionId(PARENT), cwd: '/home/demo', createdAt: BASE }), [
          STREAMED,
        ]);
        await write(subagentHeader({ parent: PARENT, id: CHILD, createdAt: BASE + 100 }), [CHILD_LOG]);
      },
    });
  }, 180_000);

  afterAll(async () => {
    await env?.close();
  }, 60_000);

  it('draws a chunk with only tool calls as its tool cards: no empty Assistant bubble', async () => {
    await open(PARENT);
    await rows(PARENT, 'turn/end').waitFor({ timeout: UI_TIMEOUT });
    const bubbles = rows(PARENT, 'assistant/message');
    // 5 is drawn by its call rows 6 and 8; 10 stays a bubble, the one place its call c3 is shown.
    expect(await bubbles.evaluateAll((found) => found.map((row) => row.getAttribute('data-seq')))).toEqual([
      '4',
      '10',
      '13',
    ]);
    // The numbers are the events' seqs (their addresses), so a hidden chunk leaves a gap, not a shift.
    expect(await bubbles.getByTestId('message-author').allTextContents()).toEqual([
      'Assistant #4',
      'Assistant #10',
      'Assistant #13',
    ]);
    expect(await bubbles.nth(1).getByTestId('tool-card').getAttribute('data-tool')).toBe('bash');
    for (const bubble of await bubbles.all())
      expect(
        await bubble.locator('[data-testid="markdown"], [data-testid="tool-card"]').count(),
      ).toBeGreaterThan(0);
    const calls = rows(PARENT, 'tool/call');
    expect(await calls.evaluateAll((found) => found.map((row) => row.getAttribute('data-seq')))).toEqual([
      '6',
      '8',
    ]);
    expect(
      await view(PARENT)
        .getByTestId('tool-card')
        .evaluateAll((cards) => cards.map((card) => card.getAttribute('data-tool'))),
    ).toEqual(['read', 'grep', 'bash']);
  });

  it('takes a link to the chunk to its first tool card, the row it is drawn as', async () => {
    await open(PARENT, 5);
    const target = view(PARENT).locator('.strand-transcript > [data-target="true"]');
    await expect.poll(() => target.getAttribute('data-seq'), { timeout: UI_TIMEOUT }).toBe('6');
    expect(await target.getAttribute('data-type')).toBe('tool/call');
  });

  it('opens a child on its identity line — subagent of the parent, by title and link, and its label — never JSON', async () => {
    // The browser's names for the subagent package's vocabulary.
    expect(DESCRIPTOR_EVENT).toBe(SUBAGENT_DESCRIPTOR_EVENT);
    expect(IDENTITY_KEY).toBe(SUBAGENT_IDENTITY_KEY);
    await open(CHILD);
    const row = rows(CHILD, SUBAGENT_DESCRIPTOR_EVENT);
    const line = row.getByTestId('identity-line');
    // The parent's title reaches the store with the session list's hints.
    await expect
      .poll(() => line.textContent(), { timeout: UI_TIMEOUT })
      .toBe('subagent of Review the writer · reviewer (one-shot)');
    expect(await row.textContent()).not.toContain('{');
    expect(await row.textContent()).toMatch(/#0$/);
    const parent = line.getByTestId('identity-parent');
    expect(await parent.getAttribute('href')).toBe(`/sessions/${PARENT}`);
    await parent.click();
    await view(PARENT).locator('[data-testid="event"]').first().waitFor({ timeout: UI_TIMEOUT });
    expect(new URL(env.page.url()).pathname).toBe(`/sessions/${PARENT}`);
  });
});
