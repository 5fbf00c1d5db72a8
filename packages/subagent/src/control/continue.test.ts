import { describe, expect, it, vi } from 'vitest';
import { SessionQueryError } from '@strand/query';
import { Session, SessionId, type MessageContent } from '@strand/session';
import { testHeader } from '@strand/test-support';
import type { ChildHandle, ChildMessage } from './child-handle.js';
import { continueSubagent, type ContinueDeps } from './continue.js';
import { isControlError } from './errors.js';
import type { ObservedChild } from './resolve-continuable.js';

const PARENT = SessionId('parent');

async function observed(mode: 'one-shot' | 'continuable'): Promise<ObservedChild & { disposed: number }> {
  const session = new Session({ header: testHeader('child', { origin: 'subagent', parentSession: PARENT }) });
  const [event] = await session.append({
    type: 'subagent/descriptor',
    data: { version: 2, mode, label: 'l' },
  });
  const obs = {
    source: 'cold' as const,
    header: session.header,
    inheritedEventCount: session.inheritedEventCount,
    events: session.events,
    firstSeq: 0,
    cursor: session.cursor,
    projections: { values: { subagent: { mode, label: 'l', seq: event!.seq } } },
    disposed: 0,
    dispose: () => void obs.disposed++,
  };
  return obs;
}

function handle(messages: ChildMessage[]): ChildHandle & { released: number } {
  const h = {
    id: SessionId('child'),
    released: 0,
    run: (message: ChildMessage) => {
      messages.push(message);
      return Promise.resolve({ reason: 'completed' as const, text: `re: ${message.content as string}` });
    },
    release: () => void h.released++,
  };
  return h;
}

describe('continueSubagent', () => {
  it('observes once, hands the observation to resume, runs one agent-authored turn and releases the child', async () => {
    const obs = await observed('continuable');
    const messages: ChildMessage[] = [];
    const child = handle(messages);
    const observe = vi.fn(() => Promise.resolve(obs));
    const resume = vi.fn((o: typeof obs) => {
      o.dispose();
      return Promise.resolve(child);
    });
    const deps: ContinueDeps<typeof obs> = { parentId: PARENT, observe, resume };
    const result = await continueSubagent(deps, { childId: SessionId('child'), message: 'next' });
    expect(result).toEqual({
      childId: 'child',
      label: 'l',
      resumedFrom: 'cold',
      turn: { reason: 'completed', text: 're: next' },
    });
    expect(observe).toHaveBeenCalledTimes(1);
    expect(observe).toHaveBeenCalledWith('child', { projectionMode: 'all', requirePrepared: true });
    expect(resume).toHaveBeenCalledWith(obs);
    expect(messages).toEqual([{ content: 'next' satisfies MessageContent, author: 'agent' }]);
    expect(child.released).toBe(1);
  });

  it('disposes the observation itself when it refuses, and never resumes', async () => {
    const obs = await observed('one-shot');
    const resume = vi.fn();
    await expect(
      continueSubagent(
        { parentId: PARENT, observe: () => Promise.resolve(obs), resume },
        { childId: SessionId('child'), message: 'm' },
      ),
    ).rejects.toSatisfy((e) => isControlError(e, 'SUBAGENT_CONTROL_NOT_CONTINUABLE'));
    expect(resume).not.toHaveBeenCalled();
    expect(obs.disposed).toBeGreaterThan(0);
  });

  it('maps not-found and cancellation of the observation to SUBAGENT_CONTROL_NOT_FOUND and CANCELLED', async () => {
    const failing = (code: 'SESSION_QUERY_NOT_FOUND' | 'SESSION_QUERY_ABORTED') => ({
      parentId: PARENT,
      observe: () => Promise.reject(new SessionQueryError(code, 'x')),
      resume: vi.fn(),
    });
    await expect(
      continueSubagent(failing('SESSION_QUERY_NOT_FOUND'), { childId: SessionId('c'), message: 'm' }),
    ).rejects.toSatisfy((e) => isControlError(e, 'SUBAGENT_CONTROL_NOT_FOUND'));
    await expect(
      continueSubagent(failing('SESSION_QUERY_ABORTED'), { childId: SessionId('c'), message: 'm' }),
    ).rejects.toSatisfy((e) => isControlError(e, 'CANCELLED'));
  });

  it('an already aborted signal is CANCELLED before anything is read', async () => {
    const observe = vi.fn();
    const controller = new AbortController();
    controller.abort();
    await expect(
      continueSubagent(
        { parentId: PARENT, observe, resume: vi.fn() },
        { childId: SessionId('c'), message: 'm' },
        controller.signal,
      ),
    ).rejects.toSatisfy((e) => isControlError(e, 'CANCELLED'));
    expect(observe).not.toHaveBeenCalled();
  });

  it('releases the child even when its turn rejects', async () => {
    const obs = await observed('continuable');
    const child = {
      id: SessionId('child'),
      released: 0,
      run: () => Promise.reject(new Error('busy')),
      release: () => void child.released++,
    };
    await expect(
      continueSubagent(
        { parentId: PARENT, observe: () => Promise.resolve(obs), resume: () => Promise.resolve(child) },
        { childId: SessionId('child'), message: 'm' },
      ),
    ).rejects.toThrow('busy');
    expect(child.released).toBe(1);
  });
});
