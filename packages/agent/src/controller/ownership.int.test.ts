import { afterEach, describe, expect, it, vi } from 'vitest';
import { SessionId } from '@strand/session';
import { ScriptedModel } from '../model/scripted/scripted-model.js';
import { agentFixture, typesOf, type AgentFixture } from '../testing/agent-fixture.js';
import type { SessionOwnership } from './ownership.js';

/** A real (in-memory) ownership table shared by "this host" and a pretend other host. */
class OwnershipTable implements SessionOwnership {
  readonly owners = new Map<string, { owner: string; uses: number }>();
  readonly log: string[] = [];
  readonly #lost = new Set<(id: SessionId) => void>();

  acquire(id: SessionId): Promise<void> {
    const held = this.owners.get(id);
    if (held !== undefined && held.owner !== 'here')
      return Promise.reject(
        Object.assign(new Error(`owned by ${held.owner}`), { code: 'SESSION_OWNED_ELSEWHERE' }),
      );
    this.log.push(`acquire ${id}`);
    this.owners.set(id, { owner: 'here', uses: (held?.uses ?? 0) + 1 });
    return Promise.resolve();
  }
  release(id: SessionId): Promise<void> {
    this.log.push(`release ${id}`);
    const held = this.owners.get(id);
    if (held?.owner === 'here' && --held.uses === 0) this.owners.delete(id);
    return Promise.resolve();
  }
  onLost(listener: (id: SessionId) => void): () => void {
    this.#lost.add(listener);
    return () => this.#lost.delete(listener);
  }
  /** Another host takes the session over (this host's lease expired). */
  takeOver(id: string): void {
    this.owners.set(id, { owner: 'elsewhere', uses: 1 });
    for (const listener of this.#lost) listener(SessionId(id));
  }
}

let f: AgentFixture;
afterEach(async () => {
  await f.close();
});

describe('session ownership (injected port)', () => {
  it('takes ownership before the first write and gives it back when the agent detaches', async () => {
    const ownership = new OwnershipTable();
    f = await agentFixture({ ownership });
    const lease = await f.controller.create({ model: { provider: 'strand', model: 'scripted' } });
    expect(ownership.log).toEqual(['acquire s-1']);
    await lease.agent.prompt('hello');
    lease.release();
    await f.controller.whenSettled();
    expect(f.store.has(SessionId('s-1'))).toBe(false);
    expect(ownership.log).toEqual(['acquire s-1', 'release s-1']);
    expect(ownership.owners.size).toBe(0);
    // Activating again takes it again.
    const { outcome } = await f.controller.prompt(SessionId('s-1'), 'again');
    expect(ownership.owners.get('s-1')?.owner).toBe('here');
    await outcome;
    await f.controller.whenSettled();
    // Activation takes it before reading, the promotion counts one more use; every use is given back.
    expect(ownership.log.slice(2)).toEqual(['acquire s-1', 'acquire s-1', 'release s-1', 'release s-1']);
    expect(ownership.owners.size).toBe(0);
  });

  it('a refused acquire rejects prompt with the port error unchanged, and nothing is published or written', async () => {
    const ownership = new OwnershipTable();
    f = await agentFixture({ ownership });
    const lease = await f.controller.create();
    await lease.agent.prompt('one turn');
    lease.release();
    await f.controller.whenSettled();
    const before = await f.stored('s-1');
    ownership.owners.set('s-1', { owner: 'host-b', uses: 1 });
    const observe = vi.spyOn(f.query, 'observeSession');
    await expect(f.controller.prompt(SessionId('s-1'), 'refused')).rejects.toMatchObject({
      code: 'SESSION_OWNED_ELSEWHERE',
    });
    expect(observe).not.toHaveBeenCalled(); // refused before reading the log
    expect(f.store.has(SessionId('s-1'))).toBe(false);
    expect(await f.stored('s-1')).toEqual(before);
  });

  it('losing ownership cancels the running turn and detaches the agent even while a lease is held', async () => {
    const ownership = new OwnershipTable();
    f = await agentFixture({
      ownership,
      model: new ScriptedModel({ script: [{ text: 'thinking', hang: true }] }),
    });
    const lease = await f.controller.create();
    const { outcome } = await f.controller.prompt(lease.agent.id, 'a long task');
    ownership.takeOver(lease.agent.id);
    expect((await outcome).reason).toBe('aborted');
    await f.controller.whenSettled();
    expect(lease.agent.attached).toBe(false);
    expect(f.store.has(lease.agent.id)).toBe(false);
    expect(typesOf(await f.stored(lease.agent.id)).at(-1)).toBe('turn/end');
    expect(f.reported).toContainEqual(expect.objectContaining({ code: 'AGENT_OWNERSHIP_LOST' }));
    // The lease holder releasing later changes nothing; a new activation must take ownership again.
    lease.release();
    await expect(f.controller.activate(lease.agent.id)).rejects.toMatchObject({
      code: 'SESSION_OWNED_ELSEWHERE',
    });
  });
});
