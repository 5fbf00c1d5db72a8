import { afterEach, describe, expect, it } from 'vitest';
import { persistenceWriter } from '@strand/persistence';
import type { FollowSnapshot } from '@strand/protocol';
import { Session, SessionId, newSessionHeader, type SessionEventInput } from '@strand/session';
import type { StrandRuntime } from '../strand-runtime.js';
import { turn, type RpcTestClient } from '../testing/host-fixture.js';
import { startTestHost, type TestHost } from '../testing/test-host.js';

let t: TestHost | undefined;
let runtime: StrandRuntime;
let client: RpcTestClient;

async function start(): Promise<void> {
  t = await startTestHost({ prefix: 'strand-read-only' });
  runtime = t.runtime;
  client = await t.connect();
}

afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** A session imported from Claude Code: two closed turns, then (optionally) one left open. */
async function imported(id: string, open: boolean): Promise<Session> {
  const { persistence } = runtime.services;
  const header = newSessionHeader({
    id: SessionId(id),
    createdAt: 1_000,
    source: { harness: 'claude-code', sourceId: 'aaaa-bbbb' },
  });
  const { incarnation } = await persistence.create({ header });
  const session = new Session({ header, incarnation, writer: persistenceWriter(persistence, header.id) });
  for (let n = 0; n < 2; n++) await session.append(turn(n));
  const openTurn: SessionEventInput[] = [
    { type: 'turn/start', data: {} },
    { type: 'user/message', data: { content: 'still running', author: 'human' } },
    {
      type: 'assistant/message',
      data: { content: '', toolCalls: [{ id: 'c1', name: 'ls', arguments: '{}' }] },
    },
    { type: 'tool/call', data: { callId: 'c1', name: 'ls', arguments: '{}' } },
  ];
  if (open) await session.append(openTurn);
  return session;
}

const codeOf = async (method: string, params: Record<string, unknown>): Promise<string | undefined> =>
  (await client.request(method, params)).error?.data.code;

describe('sessions imported from another harness are read-only', () => {
  it('refuses every command that appends with SESSION_READ_ONLY and appends nothing', async () => {
    await start();
    const session = await imported('claude-src', false);
    const before = (await runtime.services.persistence.inspect(session.id)).events.length;
    expect(await codeOf('session.rename', { id: 'claude-src', title: 'x' })).toBe('SESSION_READ_ONLY');
    expect(await codeOf('session.selectModel', { id: 'claude-src', provider: 'p', model: 'm' })).toBe(
      'SESSION_READ_ONLY',
    );
    expect(await codeOf('session.selectPreset', { id: 'claude-src', preset: null })).toBe(
      'SESSION_READ_ONLY',
    );
    expect(await codeOf('session.prompt', { id: 'claude-src', text: 'hello' })).toBe('SESSION_READ_ONLY');
    expect(await codeOf('session.cancel', { id: 'claude-src' })).toBe('SESSION_READ_ONLY');
    expect((await runtime.services.persistence.inspect(session.id)).events.length).toBe(before);
    expect(runtime.services.store.size).toBe(0);
  });

  it('refuses in the agent controller too, so a client that drives agents directly gets the same code', async () => {
    await start();
    const session = await imported('claude-direct', false);
    await expect(runtime.agents.prompt(session.id, 'hello')).rejects.toMatchObject({
      code: 'SESSION_READ_ONLY',
    });
    await expect(runtime.agents.activate(session.id)).rejects.toMatchObject({ code: 'SESSION_READ_ONLY' });
  });

  it('an interactive follow shows it without promoting it, and its open turn stays open (no crash repair)', async () => {
    await start();
    const session = await imported('claude-open', true);
    const snapshot = await client.call<FollowSnapshot>('session.follow', {
      id: 'claude-open',
      interactive: true,
    });
    expect(snapshot.header.source).toEqual({ harness: 'claude-code', sourceId: 'aaaa-bbbb' });
    expect(snapshot.cursor).toBe(session.events.length);
    expect(snapshot.events.at(-1)?.type).toBe('tool/call');
    // Give a promotion every chance to run (it would start after the snapshot): none may.
    await client.call('session.list');
    expect(runtime.services.store.size).toBe(0);
    const log = await runtime.services.persistence.load(session.id);
    expect(log.events.length).toBe(session.events.length);
    expect(log.repairs).toEqual([]);
  });

  it('forks into an ordinary Strand session that has no source and accepts commands', async () => {
    await start();
    await imported('claude-fork-src', true);
    const { id } = await client.call<{ id: string }>('session.fork', { id: 'claude-fork-src', atSeq: 5 });
    const log = await runtime.services.persistence.inspect(SessionId(id));
    expect(log.header.source).toBeUndefined();
    expect(log.header).toMatchObject({ isSeeded: true, forkedFrom: 'claude-fork-src' });
    expect(log.inheritedEventCount).toBe(8);
    const { seq } = await client.call<{ seq: number }>('session.rename', { id, title: 'Mine now' });
    expect(seq).toBe(8);
  });
});
