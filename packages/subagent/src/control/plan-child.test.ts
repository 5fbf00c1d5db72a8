import { describe, expect, it } from 'vitest';
import { Session, SessionId, type SessionEventInput } from '@strand/session';
import { testHeader } from '@strand/test-support';
import { isControlError } from './errors.js';
import { lastClosedTurnCut } from './fork-cut.js';
import { planChild } from './plan-child.js';

const turn = (n: number): SessionEventInput[] => [
  { type: 'turn/start', data: {} },
  { type: 'user/message', data: { content: `q${n}`, author: 'human' } },
  { type: 'assistant/message', data: { content: `a${n}` } },
  { type: 'turn/end', data: { reason: 'completed' } },
];

async function parent(id = 'p', depth?: number, ...batches: SessionEventInput[][]): Promise<Session> {
  const session = new Session({
    header: testHeader(id, { cwd: '/w', ...(depth === undefined ? {} : { delegationDepth: depth }) }),
  });
  for (const batch of batches) await session.append(batch);
  return session;
}

const options = { id: SessionId('c'), createdAt: 5, maxDepth: 3 };

describe('planChild', () => {
  it('plans a fresh child: subagent header one level deeper, no prefix, the descriptor as its first event', async () => {
    const plan = planChild(await parent(), { task: 't', mode: 'one-shot' }, options);
    expect(plan.header).toMatchObject({
      id: 'c',
      createdAt: 5,
      cwd: '/w',
      parentSession: 'p',
      origin: 'subagent',
      delegationDepth: 1,
      isSeeded: false,
    });
    expect(plan.inheritedEvents).toEqual([]);
    expect(plan.inheritedEventCount).toBe(0);
    expect(plan.firstEvents).toEqual([
      { type: 'subagent/descriptor', data: { version: 2, mode: 'one-shot' } },
    ]);
  });

  it('requires a label for a continuable child, and a non-empty task', async () => {
    const p = await parent();
    expect(() => planChild(p, { task: 't', mode: 'continuable' }, options)).toThrow(
      expect.toSatisfy((e) => isControlError(e, 'SUBAGENT_CONTROL_LABEL_REQUIRED')),
    );
    expect(() => planChild(p, { task: '  ', mode: 'one-shot' }, options)).toThrow(
      expect.toSatisfy((e) => isControlError(e, 'SUBAGENT_CONTROL_INVALID_ARGUMENTS')),
    );
    expect(planChild(p, { task: 't', mode: 'continuable', label: 'x' }, options).descriptor).toEqual({
      version: 2,
      mode: 'continuable',
      label: 'x',
    });
  });

  it('refuses a child deeper than the limit with SUBAGENT_CONTROL_DEPTH_LIMIT', async () => {
    expect(
      planChild(await parent('p', 2), { task: 't', mode: 'one-shot' }, options).header.delegationDepth,
    ).toBe(3);
    const deep = await parent('p', 3);
    expect(() => planChild(deep, { task: 't', mode: 'one-shot' }, options)).toThrow(
      expect.toSatisfy((e) => isControlError(e, 'SUBAGENT_CONTROL_DEPTH_LIMIT')),
    );
    const root = await parent();
    expect(() => planChild(root, { task: 't', mode: 'one-shot' }, { ...options, maxDepth: 0 })).toThrow(
      /limit is 0/,
    );
  });

  it('cuts a fork before the open turn: the child inherits only closed turns', async () => {
    const p = await parent('p', undefined, turn(1), turn(2), [{ type: 'turn/start', data: {} }]);
    const plan = planChild(p, { task: 't', mode: 'one-shot', fork: true }, options);
    expect(plan.inheritedEventCount).toBe(8);
    expect(plan.inheritedEvents).toEqual(p.events.slice(0, 8));
    expect(plan.header).toMatchObject({ isSeeded: true, forkedFrom: 'p', parentSession: 'p' });
  });

  it('refuses a fork of a parent with no closed turn (SUBAGENT_CONTROL_FORK_EMPTY)', async () => {
    const p = await parent('p', undefined, [
      { type: 'session/title', data: { title: 't' } },
      { type: 'turn/start', data: {} },
    ]);
    expect(() => planChild(p, { task: 't', mode: 'one-shot', fork: true }, options)).toThrow(
      expect.toSatisfy((e) => isControlError(e, 'SUBAGENT_CONTROL_FORK_EMPTY')),
    );
  });
});

describe('lastClosedTurnCut', () => {
  it('is the log end when no turn is open, and counts the closed turns before it', async () => {
    const p = await parent('p', undefined, turn(1), [{ type: 'session/title', data: { title: 't' } }]);
    expect(lastClosedTurnCut(p.events)).toEqual({ cut: 5, closedTurns: 1 });
  });
});
