import { afterEach, describe, expect, it } from 'vitest';
import type { FollowSnapshot, SubagentListEntry, WireEvent } from '@strand/protocol';
import type { RpcTestClient } from '../testing/host-fixture.js';
import { startTestHost, type TestHost } from '../testing/test-host.js';
import type { StrandRuntime } from '../strand-runtime.js';

/**
 * `follow.subagents` over the wire: a real host, real agents (the built-in scripted model spawns
 * children), a real WebSocket. The notification says only that a child appeared or settled; the
 * client lists again.
 */
const SCRIPTED = { provider: 'strand', model: 'scripted' };
let t: TestHost | undefined;
let runtime: StrandRuntime | undefined;

afterEach(async () => {
  await t?.close();
  t = runtime = undefined;
});

async function start(): Promise<void> {
  t = await startTestHost({ prefix: 'strand-subagents', runtime: { syncSearch: false } });
  runtime = t.runtime;
}

const connect = (): Promise<RpcTestClient> => t!.connect();

/** Every frame the host sent before this reply is already recorded (one socket, in order). */
const roundTrip = (client: RpcTestClient): Promise<unknown> => client.call('catalog.models');

type Frame = RpcTestClient['frames'][number];
const isSubagents = (followId: string) => (m: Frame) =>
  m.method === 'follow.subagents' && (m.params as { followId: string }).followId === followId;
const eventsIn = (m: Frame): WireEvent[] =>
  m.method === 'follow.events' ? (m.params as { events: WireEvent[] }).events : [];

/** Lists `id`'s children each time its follower hears `follow.subagents`, as a client would. */
function relistOnNotice(client: RpcTestClient, followId: string, id: string): Promise<SubagentListEntry[]>[] {
  const lists: Promise<SubagentListEntry[]>[] = [];
  const seen = new Set<Frame>();
  const check = (): void => {
    for (const frame of client.frames) {
      if (seen.has(frame) || !isSubagents(followId)(frame)) continue;
      seen.add(frame);
      lists.push(
        client
          .call<{ rows: SubagentListEntry[] }>('subagent.list', { id, scope: 'children' })
          .then((r) => r.rows),
      );
    }
  };
  client.ws.on('message', check);
  return lists;
}

describe('follow.subagents', () => {
  it('tells a follower when a child is spawned and when it settles, after the spawn call was delivered; a listing on receipt sees the child', async () => {
    await start();
    const writer = await connect();
    const watcher = await connect();
    const { id } = await writer.call<{ id: string }>('session.create', {
      model: SCRIPTED,
      preset: 'general',
    });
    const other = await writer.call<{ id: string }>('session.create', { model: SCRIPTED, preset: 'general' });
    const parent = await watcher.call<FollowSnapshot>('session.follow', { id });
    const unrelated = await watcher.call<FollowSnapshot>('session.follow', { id: other.id });
    const lists = relistOnNotice(watcher, parent.followId, id);

    await writer.call('session.prompt', { id, text: 'spawn a one-shot agent "helper": count the files' });
    await runtime!.agents.whenSettled();
    await roundTrip(watcher);

    const frames = watcher.frames;
    const notices = frames.filter(isSubagents(parent.followId));
    // One when the child attached (spawned), one when it detached (settled).
    expect(notices).toHaveLength(2);
    expect(notices.every((m) => (m.params as { generation: number }).generation === parent.generation)).toBe(
      true,
    );
    expect(frames.filter(isSubagents(unrelated.followId))).toHaveLength(0);

    // In order with the parent's events: the spawn_agent call before the first, its result after the last.
    const callAt = frames.findIndex((m) =>
      eventsIn(m).some((e) => e.type === 'tool/call' && (e.data as { name: string }).name === 'spawn_agent'),
    );
    const resultAt = frames.findIndex((m) => eventsIn(m).some((e) => e.type === 'tool/result'));
    expect(callAt).toBeGreaterThanOrEqual(0);
    expect(frames.indexOf(notices[0]!)).toBeGreaterThan(callAt);
    expect(frames.indexOf(notices[1]!)).toBeLessThan(resultAt);

    // A listing made on receipt of the first notice already holds the child (it was durable first).
    const [first, last] = await Promise.all(lists);
    expect(first).toEqual([expect.objectContaining({ kind: 'child', label: 'helper', mode: 'one-shot' })]);
    expect(last).toEqual([expect.objectContaining({ kind: 'child', label: 'helper', activity: 'inactive' })]);
  });

  it('a grandchild spawned by a running child is told to the root follower too', async () => {
    await start();
    const client = await connect();
    const { id } = await client.call<{ id: string }>('session.create', {
      model: SCRIPTED,
      preset: 'general',
    });
    const root = await client.call<FollowSnapshot>('session.follow', { id });
    await client.call('session.prompt', {
      id,
      text: 'spawn a one-shot agent "outer": spawn a one-shot agent "inner": count the files',
    });
    await runtime!.agents.whenSettled();
    await roundTrip(client);
    // outer attached, inner attached, inner detached, outer detached.
    expect(client.frames.filter(isSubagents(root.followId))).toHaveLength(4);
    const { rows } = await client.call<{ rows: (SubagentListEntry & { depth: number })[] }>('subagent.list', {
      id,
      scope: 'descendants',
    });
    expect(rows.map((row) => [row.kind === 'child' ? row.label : row.reason, row.depth])).toEqual([
      ['outer', 1],
      ['inner', 2],
    ]);
  });

  it('a follow that ended gets no notice', async () => {
    await start();
    const client = await connect();
    const { id } = await client.call<{ id: string }>('session.create', {
      model: SCRIPTED,
      preset: 'general',
    });
    const follow = await client.call<FollowSnapshot>('session.follow', { id });
    await client.call('session.unfollow', { followId: follow.followId });
    await client.call('session.prompt', { id, text: 'spawn a one-shot agent "helper": count the files' });
    await runtime!.agents.whenSettled();
    await roundTrip(client);
    expect(client.frames.filter((m) => m.method === 'follow.subagents')).toHaveLength(0);
  });
});
