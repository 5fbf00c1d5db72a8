import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { persistenceWriter } from '@strand/persistence';
import type { FollowSnapshot, SessionListRow } from '@strand/protocol';
import { Session, SessionId, newSessionHeader } from '@strand/session';
import { turn, type RpcTestClient } from './testing/host-fixture.js';
import { startTestHost, type TestHost } from './testing/test-host.js';
import type { RuntimeOptions } from './runtime-options.js';
import { openStrandRuntime, type StrandRuntime } from './strand-runtime.js';
import { batchGate, eventually } from '@strand/test-support';

let t: TestHost | undefined;
let runtime: StrandRuntime;

async function start(options: Omit<RuntimeOptions, 'dataDir'> = {}): Promise<RpcTestClient> {
  t = await startTestHost({ prefix: 'strand-runtime', runtime: options });
  runtime = t.runtime;
  return t.connect();
}

afterEach(async () => {
  await t?.close(); // undefined: the test opened nothing
  t = undefined;
});

async function stored(
  id: string,
  turns: number,
  extra: Partial<Parameters<typeof newSessionHeader>[0]> = {},
): Promise<Session> {
  const { persistence } = runtime.services;
  const header = newSessionHeader({ id: SessionId(id), createdAt: 1_000, ...extra });
  const { incarnation } = await persistence.create({ header });
  const session = new Session({ header, incarnation, writer: persistenceWriter(persistence, header.id) });
  for (let n = 0; n < turns; n++) await session.append(turn(n));
  return session;
}

describe('promotion by follow', () => {
  it('only an interactive follow promotes a cold ordinary session, after its snapshot was delivered, without a second read', async () => {
    const client = await start();
    await stored('cold', 3);
    const inspect = vi.spyOn(runtime.services.persistence, 'inspect');
    const promote = vi.spyOn(runtime.agents, 'promote');
    const readOnly = await client.call<FollowSnapshot>('session.follow', { id: 'cold' });
    expect(readOnly.live).toBe(false);
    // A promotion starts once the reply is sent, before the host reads this connection's next
    // request: after a round trip it was started or never will be.
    await client.call('catalog.models');
    expect(promote).not.toHaveBeenCalled();
    expect(runtime.services.store.has(SessionId('cold'))).toBe(false);
    const interactive = await client.call<FollowSnapshot>('session.follow', {
      id: 'cold',
      interactive: true,
    });
    expect(interactive.live).toBe(false); // the snapshot describes the cold cut it was read at
    await eventually(() => runtime.services.store.has(SessionId('cold')));
    expect(promote).toHaveBeenCalledTimes(1); // the spy sees the one path that promotes
    // One decode in all: the read-only follow's; the interactive observation and the publication reused it.
    expect(inspect).toHaveBeenCalledTimes(1);
    const state = await client.waitFor(
      (m) =>
        m.method === 'follow.state' &&
        (m.params as { followId: string; live: boolean }).followId === interactive.followId &&
        (m.params as { live: boolean }).live,
    );
    const replyIndex = client.frames.findIndex(
      (m) => (m.result as FollowSnapshot | undefined)?.followId === interactive.followId,
    );
    expect(replyIndex).toBeLessThan(client.frames.indexOf(state));
    // Unfollowing releases the agent: the session settles back to cold.
    await client.call('session.unfollow', { followId: interactive.followId });
    await eventually(() => !runtime.services.store.has(SessionId('cold')));
  });

  it('list, search, page, fork and subagent listing never promote; a child is never promoted by a follow', async () => {
    const client = await start();
    await stored('parent', 2);
    await stored('kid', 1, { origin: 'subagent', parentSession: SessionId('parent'), delegationDepth: 1 });
    await runtime.searchReady;
    const promote = vi.spyOn(runtime.agents, 'promote');
    const activate = vi.spyOn(runtime.agents, 'activate');
    await client.call('session.list');
    await client.call('session.search', { query: 'prompt' });
    await client.call('session.page', { id: 'parent', fromSeq: 0, toSeq: 3 });
    await client.call('session.fork', { id: 'parent', atSeq: 1 });
    await client.call('subagent.list', { id: 'parent' });
    await client.call('session.follow', { id: 'kid', interactive: true });
    await client.call('catalog.models'); // see above: a promotion would have started by now
    expect(promote).not.toHaveBeenCalled();
    expect(activate).not.toHaveBeenCalled();
    expect(runtime.services.store.size).toBe(0);
  });
});

describe('subagent.list', () => {
  it('returns the listing rows with subagentTiming hints beside them: live children from memory, settled ones from cache rows', async () => {
    const client = await start();
    await stored('tree-parent', 1);
    const settled = await stored('settled-child', 0, {
      origin: 'subagent',
      parentSession: SessionId('tree-parent'),
      delegationDepth: 1,
    });
    await settled.append({
      type: 'subagent/descriptor',
      data: { version: 2, mode: 'one-shot', label: 'settled' },
    });
    await settled.append([
      { type: 'turn/start', data: {}, time: 1_000 },
      { type: 'turn/end', data: { reason: 'completed' }, time: 4_000 },
    ]);
    runtime.services.cache!.put(
      { header: settled.header, incarnation: settled.incarnation! },
      settled.inheritedEventCount,
      runtime.services.registry.foldAll(settled.header, settled.events).rows,
    );
    const running = await stored('running-child', 0, {
      origin: 'subagent',
      parentSession: SessionId('tree-parent'),
      delegationDepth: 1,
    });
    await running.append({
      type: 'subagent/descriptor',
      data: { version: 2, mode: 'continuable', label: 'running' },
    });
    await running.append({ type: 'turn/start', data: {}, time: 10_000 });
    runtime.services.store.attach(running);
    const result = await client.call<{
      rows: { id: string; activity: string }[];
      timing: Record<string, { values: { subagentTiming: { settledMs: number; active: unknown } } }>;
    }>('subagent.list', { id: 'tree-parent' });
    // Same createdAt: ordered by id in code-unit order.
    expect(result.rows.map((r) => [r.id, r.activity])).toEqual([
      ['running-child', 'running'],
      ['settled-child', 'inactive'],
    ]);
    expect(result.timing['settled-child']?.values.subagentTiming).toMatchObject({
      settledMs: 3_000,
      active: null,
    });
    expect(result.timing['running-child']?.values.subagentTiming).toMatchObject({
      settledMs: 0,
      active: { since: 10_000 },
    });
    runtime.services.store.detach(running);
  });
});

describe('commands through the agent runtime', () => {
  it('create + prompt runs a turn with the scripted model; the follower sees its events and the title projection frame', async () => {
    const client = await start();
    const { id } = await client.call<{ id: string }>('session.create', { cwd: '/tmp/project' });
    const snapshot = await client.call<FollowSnapshot>('session.follow', { id, interactive: true });
    await client.call('session.prompt', { id, text: 'Summarize the design of Strand' });
    await client.waitFor(
      (m) =>
        m.method === 'follow.events' &&
        (m.params as { events: { type: string }[] }).events.some((e) => e.type === 'turn/end'),
    );
    const title = await client.waitFor(
      (m) => m.method === 'follow.projection' && (m.params as { key: string }).key === 'title',
    );
    expect((title.params as { value: string }).value).toMatch(/Summarize/);
    expect(snapshot.baseline.values).toHaveProperty('subagent');
    const { sessions } = await client.call<{ sessions: SessionListRow[] }>('session.list');
    expect(sessions.map((s) => s.id)).toContain(id);
  });

  it('catalogs list the built-in scripted model and the default presets', async () => {
    const client = await start();
    const { models } = await client.call<{ models: { provider: string; model: string }[] }>('catalog.models');
    expect(models).toContainEqual(expect.objectContaining({ provider: 'strand', model: 'scripted' }));
    const { presets } = await client.call<{ presets: { name: string }[] }>('catalog.presets');
    expect(presets.map((p) => p.name)).toContain('general');
  });

  it('search finds a phrase written to a stored session', async () => {
    const client = await start();
    const s = await stored('searchable', 1);
    await s.append({
      type: 'user/message',
      data: { content: 'the zebra crossing protocol', author: 'human' },
    });
    await runtime.search.sync({ persistence: runtime.services.persistence, live: runtime.services.store });
    const page = await client.call<{ results: { sessionId: string; hits: { snippet: string }[] }[] }>(
      'session.search',
      { query: 'zebra crossing' },
    );
    expect(page.results[0]?.sessionId).toBe('searchable');
  });
});

describe('the cold-read bound of the subagent listing (a runtime option)', () => {
  /**
   * The most observations in flight during `work`, each held until `bound` of them run at once
   * (`reads` in all): a bound that let one more in would show in the peak.
   */
  const peakDuring = async (work: () => Promise<unknown>, bound: number, reads: number): Promise<number> => {
    const { query } = runtime.services;
    const observe = query.observeSession.bind(query);
    const gate = batchGate(bound, reads);
    let inFlight = 0;
    let peak = 0;
    const spy = vi.spyOn(query, 'observeSession').mockImplementation(async (id, options) => {
      peak = Math.max(peak, ++inFlight);
      try {
        await gate();
        return await observe(id, options);
      } finally {
        inFlight--;
      }
    });
    try {
      await work();
    } finally {
      spy.mockRestore();
    }
    return peak;
  };
  const children = async (count: number): Promise<void> => {
    await stored('bounded-parent', 1);
    for (let i = 0; i < count; i++) {
      const child = await stored(`bounded-child-${i}`, 0, {
        origin: 'subagent',
        parentSession: SessionId('bounded-parent'),
        delegationDepth: 1,
      });
      // Unseeded, with no cache row yet: every child takes a cold read.
      await child.append({
        type: 'subagent/descriptor',
        data: { version: 2, mode: 'one-shot', label: `c${i}` },
      });
    }
  };

  it('a configured bound of 2 is the observed peak of cold reads in subagent.list', async () => {
    const client = await start({ coldReadConcurrency: 2 });
    expect(runtime.coldReadConcurrency).toBe(2);
    await children(8);
    let rows: unknown[] = [];
    const peak = await peakDuring(
      async () => {
        ({ rows } = await client.call<{ rows: unknown[] }>('subagent.list', { id: 'bounded-parent' }));
      },
      2,
      8,
    );
    expect(rows).toHaveLength(8);
    expect(peak).toBe(2);
  });

  it('the files default is the seed constant 4', async () => {
    const client = await start();
    expect(runtime.coldReadConcurrency).toBe(4);
    await children(8);
    expect(await peakDuring(() => client.call('subagent.list', { id: 'bounded-parent' }), 4, 8)).toBe(4);
  });

  it.each([0, 1.5, 65])(
    'refuses to open with coldReadConcurrency %s (RUNTIME_CONFIG_INVALID)',
    async (bad) => {
      const dir = mkdtempSync(path.join(tmpdir(), 'strand-runtime-bad-'));
      try {
        await expect(openStrandRuntime({ dataDir: dir, coldReadConcurrency: bad })).rejects.toMatchObject({
          code: 'RUNTIME_CONFIG_INVALID',
          message: expect.stringMatching(/coldReadConcurrency must be/) as string,
        });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
