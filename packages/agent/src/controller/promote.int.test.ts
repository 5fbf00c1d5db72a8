import { afterEach, describe, expect, it, vi } from 'vitest';
import { SessionId, SessionSeq, type SessionId as Id } from '@strand/session';
import { createWritingSession, crashedTurn, testHeader } from '@strand/test-support';
import { isAgentError } from '../errors.js';
import { agentFixture, typesOf, type AgentFixture } from '../testing/agent-fixture.js';

let f: AgentFixture;
afterEach(async () => {
  await f.close();
});

/** A stored, cold session with one completed turn, made by the controller itself. */
async function coldSession(prompt = 'first prompt'): Promise<Id> {
  const lease = await f.controller.create();
  await lease.agent.prompt(prompt);
  lease.release();
  await f.controller.whenSettled();
  expect(f.store.has(lease.agent.id)).toBe(false);
  return lease.agent.id;
}

describe('promote', () => {
  it('publishes the observed prepared session without a second read, attaches an agent and disposes the observation', async () => {
    f = await agentFixture();
    const id = await coldSession();
    const inspect = vi.spyOn(f.persistence, 'inspect');
    const followed = await f.query.observeSession(id, { projectionMode: 'all', requirePrepared: true });
    const handed = followed.retain();
    followed.dispose();
    const lease = await f.controller.promote(handed);
    expect(inspect).toHaveBeenCalledTimes(1);
    expect(handed.disposed).toBe(true);
    expect(f.store.get(id)).toBe(lease.agent.session);
    expect(lease.agent.session.events).toEqual(handed.events);
    const outcome = await lease.agent.prompt('second prompt');
    expect(outcome.reason).toBe('completed');
    lease.release();
    await f.controller.whenSettled();
    expect(inspect).toHaveBeenCalledTimes(1);
    expect(f.preparations.stats().outstandingLeases).toBe(0);
    expect(f.query.outstandingLeases).toBe(0);
    expect(typesOf(await f.stored(id)).filter((t) => t === 'turn/end')).toHaveLength(2);
  });

  it('refuses an observation without a prepared source and still disposes it', async () => {
    f = await agentFixture();
    const id = await coldSession();
    // A windowed cold read with no projections is served from the log tail, not a prepared session.
    const tail = await f.query.observeSession(id, { window: { last: 2 } });
    expect(tail.hasPreparedSource).toBe(false);
    await expect(f.controller.promote(tail)).rejects.toSatisfy((error) =>
      isAgentError(error, 'AGENT_PROMOTION_UNPREPARED'),
    );
    expect(tail.disposed).toBe(true);
    expect(f.store.has(id)).toBe(false);
  });

  it('refuses an observation whose log changed after it was read (AGENT_PROMOTION_STALE)', async () => {
    f = await agentFixture();
    const id = await coldSession();
    const observation = await f.query.observeSession(id, { requirePrepared: true });
    const stored = await f.stored(id);
    // Another writer appends to the cold log behind the observation's back.
    await f.persistence.append(id, [
      { type: 'session/title', seq: SessionSeq(stored.length), time: 1, data: { title: 'elsewhere' } },
    ]);
    await expect(f.controller.promote(observation)).rejects.toSatisfy((error) =>
      isAgentError(error, 'AGENT_PROMOTION_STALE'),
    );
    expect(observation.disposed).toBe(true);
    expect(f.store.has(id)).toBe(false);
  });

  it('a session already live here gives a lease on its agent instead of a second publication', async () => {
    f = await agentFixture();
    const id = await coldSession();
    const first = await f.controller.activate(id);
    const observation = await f.query.observeSession(id, { requirePrepared: true });
    expect(observation.source).toBe('live');
    const second = await f.controller.promote(observation);
    expect(second.agent).toBe(first.agent);
    first.release();
    second.release();
  });

  it('publishing a crashed session writes its repair closers before the agent continues it', async () => {
    f = await agentFixture();
    const header = testHeader('crashed');
    const writer = await createWritingSession(f.persistence, header);
    await writer.append(crashedTurn('interrupted work', ['c1']));
    const lease = await f.controller.activate(header.id);
    const types = typesOf(lease.agent.session.events);
    expect(types.slice(-3)).toEqual(['tool/result', 'step/end', 'turn/end']);
    await lease.agent.prompt('carry on');
    lease.release();
    await f.controller.whenSettled();
    const stored = await f.stored('crashed');
    expect(stored.find((e) => e.type === 'turn/end')?.data).toEqual({ reason: 'interrupted' });
    // The continued turn completed: its title, then its turn/end, close the log.
    expect(typesOf(stored).slice(-2)).toEqual(['session/title', 'turn/end']);
  });
});

describe('activate', () => {
  it('promotes a cold session by id with one read', async () => {
    f = await agentFixture();
    const id = await coldSession();
    const inspect = vi.spyOn(f.persistence, 'inspect');
    const lease = await f.controller.activate(id);
    expect(inspect).toHaveBeenCalledTimes(1);
    expect(lease.agent.attached).toBe(true);
    lease.release();
  });

  it('concurrent activations of one cold session share one publication', async () => {
    f = await agentFixture();
    const id = await coldSession();
    const inspect = vi.spyOn(f.persistence, 'inspect');
    const [a, b] = await Promise.all([f.controller.activate(id), f.controller.activate(id)]);
    expect(a.agent).toBe(b.agent);
    expect(inspect).toHaveBeenCalledTimes(1);
    a.release();
    b.release();
  });

  it('an unknown id is AGENT_SESSION_NOT_FOUND', async () => {
    f = await agentFixture();
    await expect(f.controller.activate(SessionId('nope'))).rejects.toSatisfy((error) =>
      isAgentError(error, 'AGENT_SESSION_NOT_FOUND'),
    );
  });

  it('controller.prompt activates a cold session, starts the turn, and lets it settle when the turn ends', async () => {
    f = await agentFixture();
    const id = await coldSession();
    const { agent, outcome } = await f.controller.prompt(id, 'again');
    expect(agent.status).toBe('running');
    expect((await outcome).reason).toBe('completed');
    await f.controller.whenSettled();
    expect(f.store.has(id)).toBe(false);
    expect(f.controller.cancel(id)).toBe(false);
  });
});
