import { ManualClock } from '@strand/test-support';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SessionLogOffset } from '@strand/session';
import { agentFixture, type AgentFixture } from '../testing/agent-fixture.js';

let f: AgentFixture;
afterEach(async () => {
  await f.close();
});

describe('settling: detach after the agent is idle with no lease', () => {
  it('releasing the last lease after a turn flushes persistence, then detaches, then the policy writes the cache row', async () => {
    f = await agentFixture();
    const lease = await f.controller.create();
    const { agent } = lease;
    await agent.prompt('remember this');
    // A rename after the turn: the row written at turn/end no longer covers the log, so detaching
    // has a row to write (a turn's own title is inside the turn, in its turn/end row).
    await agent.session.append({ type: 'session/title', data: { title: 'renamed after the turn' } });
    const order: string[] = [];
    const flush = f.persistence.flush.bind(f.persistence);
    vi.spyOn(f.persistence, 'flush').mockImplementation(() => {
      order.push('flush');
      return flush();
    });
    f.store.subscribe((change) => order.push(change.kind));
    const put = f.cache.put.bind(f.cache);
    vi.spyOn(f.cache, 'put').mockImplementation((subject, cut, rows) => {
      order.push('cache row');
      put(subject, cut, rows);
    });
    lease.release();
    await f.controller.whenSettled();
    // The controller flushes before detaching; the policy flushes again before its row.
    expect(order).toEqual(['flush', 'detached', 'flush', 'cache row']);
    expect(f.store.has(agent.id)).toBe(false);
    expect(agent.attached).toBe(false);
    const snapshot = f.cache.cachedSnapshot(
      { header: agent.session.header, incarnation: agent.session.incarnation! },
      SessionLogOffset(0),
      ['title'],
    );
    expect(snapshot).toEqual({
      asOfSeq: agent.session.events.length - 1,
      values: { title: 'renamed after the turn' },
    });
  });

  it('a row is written at turn end while the session is still live', async () => {
    f = await agentFixture();
    const lease = await f.controller.create();
    await lease.agent.prompt('first');
    await f.policy.drain();
    const snapshot = f.cache.cachedSnapshot(
      { header: lease.agent.session.header, incarnation: lease.agent.session.incarnation! },
      SessionLogOffset(0),
      ['usage'],
    );
    // Written at turn/end, the turn's last event: the title derived from its prompt is inside it.
    expect(snapshot?.asOfSeq).toBe(lease.agent.session.events.findIndex((e) => e.type === 'turn/end'));
    expect(snapshot?.asOfSeq).toBe(lease.agent.session.events.length - 1);
    expect(f.store.has(lease.agent.id)).toBe(true);
    lease.release();
  });

  it('a held lease keeps the agent attached across turns; releasing it detaches the session', async () => {
    f = await agentFixture();
    const lease = await f.controller.create();
    const extra = lease.agent.retain();
    await lease.agent.prompt('one');
    lease.release();
    await f.controller.whenSettled();
    expect(f.store.has(lease.agent.id)).toBe(true);
    await lease.agent.prompt('two');
    extra.release();
    extra.release();
    await f.controller.whenSettled();
    expect(f.store.has(lease.agent.id)).toBe(false);
    await expect(lease.agent.prompt('three')).rejects.toMatchObject({ code: 'AGENT_DETACHED' });
  });

  it('a new session with no event stays attached when its lease is released (it is not stored yet)', async () => {
    f = await agentFixture();
    const lease = await f.controller.create();
    lease.release();
    await f.controller.whenSettled();
    expect(f.store.has(lease.agent.id)).toBe(true);
    expect(lease.agent.attached).toBe(true);
  });

  it('a prompt that arrives while the detach is flushing keeps the agent attached', async () => {
    f = await agentFixture();
    const lease = await f.controller.create();
    const { agent } = lease;
    await agent.prompt('one');
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    vi.spyOn(f.persistence, 'flush').mockImplementationOnce(() => gate);
    lease.release();
    const second = agent.prompt('two');
    release();
    await second;
    expect(f.store.has(agent.id)).toBe(true);
    await f.controller.whenSettled();
    // The turn's own end settled it afterwards.
    expect(f.store.has(agent.id)).toBe(false);
  });

  it('idleDetachMs keeps a settled agent attached for a grace period', async () => {
    const clock = new ManualClock();
    f = await agentFixture({ idleDetachMs: 50, timers: clock });
    const lease = await f.controller.create();
    await lease.agent.prompt('one');
    lease.release();
    await clock.whenArmed();
    clock.advance(49);
    expect(f.store.has(lease.agent.id)).toBe(true);
    clock.advance(1);
    await f.controller.whenSettled();
    expect(f.store.has(lease.agent.id)).toBe(false);
  });

  it('the controller reports attached, status and detached changes in order', async () => {
    f = await agentFixture();
    const changes: string[] = [];
    f.controller.onChange(
      (change) =>
        change.kind !== 'draft' && changes.push(change.kind === 'status' ? change.status : change.kind),
    );
    const lease = await f.controller.create();
    await lease.agent.prompt('x');
    lease.release();
    await f.controller.whenSettled();
    expect(changes).toEqual(['attached', 'running', 'idle', 'detached']);
  });
});
