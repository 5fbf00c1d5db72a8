import { afterEach, describe, expect, it, vi } from 'vitest';
import { ScriptedModel } from '../model/scripted/scripted-model.js';
import { agentFixture, typesOf, type AgentFixture } from '../testing/agent-fixture.js';

let f: AgentFixture;
afterEach(async () => {
  vi.restoreAllMocks();
  await f.close();
});

describe('a prompt learns its turn started from the turn itself', () => {
  it('resolves once turn/start and user/message are durable, while the turn still runs', async () => {
    f = await agentFixture({ model: new ScriptedModel({ script: [{ hang: true }] }) });
    const lease = await f.controller.create();
    const id = lease.agent.id;
    const { agent, outcome } = await f.controller.prompt(id, 'wait for me');
    // The model hangs: the turn is running, and what the prompt waited for is on disk.
    expect(agent.status).toBe('running');
    expect(typesOf(await f.stored(id)).slice(0, 2)).toEqual(['turn/start', 'user/message']);
    expect(f.controller.cancel(id)).toBe(true);
    const ended = await outcome;
    expect(ended.reason).toBe('aborted');
    expect(ended.turnStartSeq).toBe(0);
    lease.release();
  });

  it('rejects with the turn error when the prompt itself cannot be stored, and no turn stays running', async () => {
    f = await agentFixture();
    const lease = await f.controller.create();
    const id = lease.agent.id;
    await lease.agent.prompt('stored first'); // the session is on disk, with a closed turn
    const before = typesOf(await f.stored(id));
    vi.spyOn(f.persistence, 'append').mockRejectedValueOnce(new Error('disk full'));
    await expect(f.controller.prompt(id, 'not stored')).rejects.toMatchObject({
      code: 'AGENT_PERSISTENCE_FAILED',
    });
    lease.release();
    await f.controller.whenSettled();
    // The failed write stopped the session: its agent detached, and nothing of the prompt is stored.
    expect(f.controller.agent(id)).toBeUndefined();
    expect(typesOf(await f.stored(id))).toEqual(before);
  });

  it('whenSettled waits for a running turn the controller did not start through prompt', async () => {
    f = await agentFixture();
    const lease = await f.controller.create();
    const running = lease.agent.prompt('through the agent');
    let ended = false;
    void running.then(() => (ended = true));
    await f.controller.whenSettled();
    expect(ended).toBe(true);
    expect(lease.agent.status).toBe('idle');
    lease.release();
  });
});
