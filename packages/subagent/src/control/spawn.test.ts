import { describe, expect, it, vi } from 'vitest';
import { Session, SessionId } from '@strand/session';
import { testHeader } from '@strand/test-support';
import type { ChildPlan } from './plan-child.js';
import { isControlError } from './errors.js';
import { spawnSubagent, type SpawnDeps } from './spawn.js';

function deps(overrides: Partial<SpawnDeps> = {}): SpawnDeps & { plans: ChildPlan[]; released: number } {
  const state = { plans: [] as ChildPlan[], released: 0 };
  return Object.assign(state, {
    parent: new Session({ header: testHeader('p') }),
    maxDepth: 3,
    newSessionId: () => SessionId('child'),
    now: () => 7,
    start: (plan: ChildPlan) => {
      state.plans.push(plan);
      return Promise.resolve({
        id: plan.header.id,
        run: (message: { content: unknown }) =>
          Promise.resolve({ reason: 'completed' as const, text: `did ${String(message.content)}` }),
        release: () => void state.released++,
      });
    },
    ...overrides,
  });
}

describe('spawnSubagent', () => {
  it('starts the planned child, runs its first turn with the task and releases it', async () => {
    const d = deps();
    const result = await spawnSubagent(d, { task: 'work', mode: 'continuable', label: 'w' });
    expect(result).toEqual({
      childId: 'child',
      mode: 'continuable',
      label: 'w',
      forked: false,
      inheritedEventCount: 0,
      turn: { reason: 'completed', text: 'did work' },
    });
    expect(d.plans[0]!.header).toMatchObject({
      id: 'child',
      createdAt: 7,
      origin: 'subagent',
      parentSession: 'p',
    });
    expect(d.released).toBe(1);
  });

  it('refuses before creating anything when the request is invalid or the signal already aborted', async () => {
    const d = deps();
    await expect(spawnSubagent(d, { task: 'x', mode: 'continuable' })).rejects.toSatisfy((e) =>
      isControlError(e, 'SUBAGENT_CONTROL_LABEL_REQUIRED'),
    );
    const controller = new AbortController();
    controller.abort();
    await expect(spawnSubagent(d, { task: 'x', mode: 'one-shot' }, controller.signal)).rejects.toSatisfy(
      (e) => isControlError(e, 'CANCELLED'),
    );
    expect(d.plans).toEqual([]);
  });

  it('releases the child when its turn rejects', async () => {
    const d = deps();
    const start = vi.fn((plan: ChildPlan) =>
      Promise.resolve({
        id: plan.header.id,
        run: () => Promise.reject(new Error('boom')),
        release: () => void d.released++,
      }),
    );
    await expect(spawnSubagent({ ...d, start }, { task: 'x', mode: 'one-shot' })).rejects.toThrow('boom');
    expect(d.released).toBe(1);
  });
});
