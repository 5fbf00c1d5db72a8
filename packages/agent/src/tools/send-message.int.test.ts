import { afterEach, describe, expect, it, vi } from 'vitest';
import { SessionId, type SessionEvent } from '@strand/session';
import { isAgentError } from '../errors.js';
import { agentFixture, type AgentFixture } from '../testing/agent-fixture.js';
import type { AgentLease } from '../agent.js';

let f: AgentFixture;
afterEach(async () => {
  await f.close();
});

const lastToolResult = (
  events: readonly SessionEvent[],
): { content: string; isError?: boolean; code?: string } =>
  events.findLast((e) => e.type === 'tool/result')!.data as {
    content: string;
    isError?: boolean;
    code?: string;
  };

const CHILD = SessionId('s-2');

/** A parent (s-1) whose first turn spawned one child (s-2) of the given mode; `settle` waits until the child is cold. */
async function parentWithChild(mode: 'one-shot' | 'continuable', settle = true): Promise<AgentLease> {
  const parent = await f.controller.create();
  await parent.agent.prompt(
    `call spawn_agent ${JSON.stringify({ task: 'first task', mode, label: 'helper' })}`,
  );
  if (settle) await f.controller.whenSettled();
  return parent;
}

describe('send_message', () => {
  it('resumes a cold continuable child from one observation: its log is read once, the message is agent-authored', async () => {
    f = await agentFixture();
    const parent = await parentWithChild('continuable');
    expect(f.store.has(CHILD)).toBe(false);
    const inspect = vi.spyOn(f.persistence, 'inspect');
    const outcome = await parent.agent.prompt(`tell ${CHILD}: second task`);
    expect(outcome.reason).toBe('completed');
    expect(inspect.mock.calls.filter(([id]) => id === CHILD)).toHaveLength(1);
    const result = lastToolResult(parent.agent.session.events);
    expect(result.isError).toBeUndefined();
    expect(result.content).toContain('Agent "helper" (id s-2) answered.');
    expect(result.content).toContain('You said: "second task" (2 words).');
    await f.controller.whenSettled();
    expect(f.store.has(CHILD)).toBe(false);
    const child = await f.stored(CHILD);
    const messages = child.filter((e) => e.type === 'user/message').map((e) => e.data);
    expect(messages).toEqual([
      { content: 'first task', author: 'agent' },
      { content: 'second task', author: 'agent' },
    ]);
    parent.release();
  });

  it('continues a child that is still live without reading its log', async () => {
    f = await agentFixture({ idleDetachMs: 60_000 });
    const parent = await parentWithChild('continuable', false);
    expect(f.store.has(CHILD)).toBe(true);
    const inspect = vi.spyOn(f.persistence, 'inspect');
    await parent.agent.prompt(`tell ${CHILD}: again`);
    expect(inspect).not.toHaveBeenCalled();
    expect(lastToolResult(parent.agent.session.events).content).toContain('You said: "again"');
    parent.release();
  });

  it('is refused SUBAGENT_CONTROL_NOT_PARENT when the caller is not the exact direct parent', async () => {
    f = await agentFixture();
    const parent = await parentWithChild('continuable');
    const stranger = await f.controller.create();
    await stranger.agent.prompt(`tell ${CHILD}: do my bidding`);
    expect(lastToolResult(stranger.agent.session.events)).toMatchObject({
      isError: true,
      code: 'SUBAGENT_CONTROL_NOT_PARENT',
    });
    const child = await f.stored(CHILD);
    expect(child.filter((e) => e.type === 'user/message')).toHaveLength(1);
    expect(f.store.has(CHILD)).toBe(false);
    parent.release();
    stranger.release();
  });

  it('a grandparent is not a direct parent either', async () => {
    f = await agentFixture();
    const root = await f.controller.create();
    // s-2 spawns s-3 (continuable); s-1 then tries to continue s-3 directly.
    const inner = `call spawn_agent ${JSON.stringify({ task: 'leaf', mode: 'continuable', label: 'leaf' })}`;
    await root.agent.prompt(
      `call spawn_agent ${JSON.stringify({ task: inner, mode: 'continuable', label: 'mid' })}`,
    );
    await f.controller.whenSettled();
    await root.agent.prompt('tell s-3: skip a level');
    expect(lastToolResult(root.agent.session.events)).toMatchObject({
      isError: true,
      code: 'SUBAGENT_CONTROL_NOT_PARENT',
    });
    root.release();
  });

  it('is refused SUBAGENT_CONTROL_NOT_CONTINUABLE for a one-shot child', async () => {
    f = await agentFixture();
    const parent = await parentWithChild('one-shot');
    await parent.agent.prompt(`tell ${CHILD}: more`);
    expect(lastToolResult(parent.agent.session.events)).toMatchObject({
      isError: true,
      code: 'SUBAGENT_CONTROL_NOT_CONTINUABLE',
    });
    expect(f.store.has(CHILD)).toBe(false);
    parent.release();
  });

  it('is refused SUBAGENT_CONTROL_NOT_FOUND for an unknown id', async () => {
    f = await agentFixture();
    const parent = await f.controller.create();
    await parent.agent.prompt('tell nobody-here: hello');
    expect(lastToolResult(parent.agent.session.events)).toMatchObject({
      isError: true,
      code: 'SUBAGENT_CONTROL_NOT_FOUND',
    });
    parent.release();
  });
});

describe('child sessions are driven only by their parent', () => {
  it('refuses prompts, promotion and activation of a child with AGENT_CHILD_SESSION', async () => {
    f = await agentFixture({ idleDetachMs: 60_000 });
    const parent = await parentWithChild('continuable', false);
    const live = f.controller.agent(CHILD)!;
    expect(live.isChild).toBe(true);
    await expect(live.prompt('hi')).rejects.toSatisfy((error) => isAgentError(error, 'AGENT_CHILD_SESSION'));
    await expect(f.controller.activate(CHILD)).rejects.toSatisfy((error) =>
      isAgentError(error, 'AGENT_CHILD_SESSION'),
    );
    await expect(f.controller.prompt(CHILD, 'hi')).rejects.toSatisfy((error) =>
      isAgentError(error, 'AGENT_CHILD_SESSION'),
    );
    parent.release();
  });

  it('refuses to promote a cold child and disposes the observation', async () => {
    f = await agentFixture();
    const parent = await parentWithChild('continuable');
    const observation = await f.query.observeSession(CHILD, { projectionMode: 'all', requirePrepared: true });
    await expect(f.controller.promote(observation)).rejects.toSatisfy((error) =>
      isAgentError(error, 'AGENT_CHILD_SESSION'),
    );
    expect(observation.disposed).toBe(true);
    expect(f.store.has(CHILD)).toBe(false);
    await expect(f.controller.activate(CHILD)).rejects.toSatisfy((error) =>
      isAgentError(error, 'AGENT_CHILD_SESSION'),
    );
    expect(f.store.has(CHILD)).toBe(false);
    parent.release();
  });
});
