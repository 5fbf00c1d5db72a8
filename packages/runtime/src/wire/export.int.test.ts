import { afterEach, describe, expect, it } from 'vitest';
import type { ResultOf, WireEvent } from '@strand/protocol';
import {
  eventually,
  ManualClock,
  mockChatServer,
  type MockChatServer,
  pacedAnswer,
} from '@strand/test-support';
import { startTestHost, type TestHost } from '../testing/test-host.js';

/**
 * `session.export` over the wire, on a real host running a real agent against a local endpoint the
 * test paces: a session exported mid-turn holds exactly its durable events and says a turn is
 * running; exported again once the turn ended, it holds the answer.
 */
const LOCAL = { provider: 'local', model: 'tiny-1' };
let server: MockChatServer;
let t: TestHost | undefined;

afterEach(async () => {
  await t?.close();
  await server.close();
  t = undefined;
});

type Exported = ResultOf<'session.export'>;

describe('session.export', () => {
  it('exports the durable cut of a running turn and says so, then the whole turn once it ended', async () => {
    server = await mockChatServer();
    const answer = pacedAnswer(['Half ', 'an answer'], { input: 5, output: 5 }, { holdEnd: true });
    server.handle(answer.handler);
    t = await startTestHost({
      prefix: 'strand-export',
      runtime: { models: [{ ...LOCAL, baseUrl: server.baseUrl }], defaultModel: LOCAL, syncSearch: false },
      host: { draftPacing: { intervalMs: 50, clock: new ManualClock() } },
    });
    const offered: string[] = [];
    t.runtime.agents.onChange((change) => change.kind === 'draft' && offered.push(change.text));
    const client = await t.connect();
    const { id } = await client.call<{ id: string }>('session.create', {});
    await client.call('session.prompt', { id, text: 'write a long answer' });
    answer.next();
    await eventually(() => offered.at(-1) === 'Half ');

    const midway = await client.call<Exported>('session.export', { id, format: 'json' });
    const page = await client.call<{ events: WireEvent[]; cursor: number }>('session.page', {
      id,
      fromSeq: 0,
      limit: 1000,
    });
    const exported = JSON.parse(midway.text) as {
      events: WireEvent[];
      cut: { lastSeq: number; running: boolean };
    };
    // Nothing beyond what a page of the durable log shows; never the streaming draft.
    expect(exported.events).toEqual(page.events.slice(0, exported.events.length));
    expect(midway).toMatchObject({ running: true, lastSeq: exported.events.length - 1, format: 'json' });
    expect(exported.cut).toEqual({ lastSeq: midway.lastSeq, running: true });
    expect(midway.text).not.toContain('Half ');
    expect(midway.fileName).toBe(`strand-${id}.json`);
    const markdown = await client.call<Exported>('session.export', { id, format: 'markdown' });
    expect(markdown.text).toContain('a turn was running');
    expect(markdown.text).toContain('write a long answer');
    expect(markdown.mediaType).toMatch(/^text\/markdown/);

    answer.next();
    answer.next();
    await t.runtime.agents.whenSettled();
    const done = await client.call<Exported>('session.export', { id, format: 'markdown' });
    expect(done.running).toBe(false);
    expect(done.text).toContain('Half an answer');
    expect(done.lastSeq).toBeGreaterThan(midway.lastSeq);
  });

  it('answers an unknown session and an unknown format with their typed errors', async () => {
    server = await mockChatServer();
    t = await startTestHost({
      prefix: 'strand-export',
      runtime: { models: [{ ...LOCAL, baseUrl: server.baseUrl }], defaultModel: LOCAL, syncSearch: false },
    });
    const client = await t.connect();
    await expect(
      client.call('session.export', { id: 'no-such-session', format: 'markdown' }),
    ).rejects.toMatchObject({
      code: 'SESSION_QUERY_NOT_FOUND',
    });
    await expect(client.call('session.export', { id: 'x', format: 'pdf' })).rejects.toMatchObject({
      code: 'RPC_INVALID_PARAMS',
    });
  });
});
