import { afterEach, describe, expect, it } from 'vitest';
import { listChildren } from '@strand/subagent';
import { checkLogInvariants, SessionId, type SessionEvent } from '@strand/session';
import type { ModelRequest } from '../model/model.js';
import { ScriptedModel } from '../model/scripted/scripted-model.js';
import { agentFixture, type AgentFixture } from '../testing/agent-fixture.js';
import { eventually } from '@strand/test-support';

let f: AgentFixture;
afterEach(async () => {
  await f.close();
});

const toolResults = (
  events: readonly SessionEvent[],
): { content: unknown; isError?: boolean; code?: string }[] =>
  events
    .filter((e) => e.type === 'tool/result')
    .map((e) => e.data as { content: unknown; isError?: boolean; code?: string });

const spawnLine = (args: Record<string, unknown>): string => `call spawn_agent ${JSON.stringify(args)}`;

describe('spawn_agent', () => {
  it('creates a fresh one-shot child: subagent header, descriptor first, the task as an agent message, then it settles cold', async () => {
    f = await agentFixture();
    const parent = await f.controller.create({ cwd: '/repo' });
    const outcome = await parent.agent.prompt(
      spawnLine({ task: 'count the files', mode: 'one-shot', label: 'counter' }),
    );
    expect(outcome.reason).toBe('completed');
    await f.controller.whenSettled();
    const childId = SessionId('s-2');
    expect(f.store.has(childId)).toBe(false);
    const child = await f.persistence.inspect(childId);
    expect(child.header).toMatchObject({
      origin: 'subagent',
      parentSession: parent.agent.id,
      delegationDepth: 1,
      cwd: '/repo',
      isSeeded: false,
    });
    expect(child.inheritedEventCount).toBe(0);
    expect(child.events[0]).toMatchObject({
      type: 'subagent/descriptor',
      data: { version: 2, mode: 'one-shot', label: 'counter' },
    });
    expect(child.events[1]!.type).toBe('turn/start');
    expect(child.events[2]!.data).toEqual({ content: 'count the files', author: 'agent' });
    expect(child.events.findLast((e) => e.type === 'turn/end')?.data).toEqual({ reason: 'completed' });
    const [result] = toolResults(parent.agent.session.events);
    expect(result!.isError).toBeUndefined();
    expect(result!.content).toContain('Spawned one-shot agent "counter" (id s-2).');
    expect(result!.content).toContain('You said: "count the files" (3 words).');
    const rows = await listChildren(
      {
        sessionProjections: f.registry,
        sessions: f.store,
        sessionQuery: f.query,
        sessionProjectionCache: f.cache,
      },
      parent.agent.id,
    );
    expect(rows).toEqual([
      {
        kind: 'child',
        id: childId,
        activity: 'inactive',
        hasChildren: false,
        mode: 'one-shot',
        label: 'counter',
      },
    ]);
    parent.release();
  });

  it('forks a child at the last closed-turn boundary: seeded with the completed turns, descriptor as its first own event', async () => {
    const childRequests: ModelRequest[] = [];
    const childModel = new ScriptedModel({
      script: [(request) => (childRequests.push(request), { text: 'forked answer' })],
    });
    const parentModel = new ScriptedModel();
    f = await agentFixture({
      model: ({ header }) => (header.origin === 'subagent' ? childModel : parentModel),
    });
    const parent = await f.controller.create();
    await parent.agent.prompt('the first topic');
    const cut = parent.agent.session.events.length;
    await parent.agent.prompt(
      spawnLine({ task: 'continue from here', mode: 'continuable', label: 'twin', fork: true }),
    );
    await f.controller.whenSettled();
    const child = await f.persistence.inspect(SessionId('s-2'));
    expect(child.header).toMatchObject({
      isSeeded: true,
      forkedFrom: parent.agent.id,
      parentSession: parent.agent.id,
      origin: 'subagent',
    });
    expect(child.inheritedEventCount).toBe(cut);
    expect(child.inheritedEventCount).toBeGreaterThan(0);
    expect(child.events.slice(0, cut)).toEqual(parent.agent.session.events.slice(0, cut));
    expect(child.events[cut]).toMatchObject({
      seq: cut,
      type: 'subagent/descriptor',
      data: { version: 2, mode: 'continuable', label: 'twin' },
    });
    // The child's model saw the inherited conversation before its own task.
    expect(childRequests[0]!.messages.map((m) => m.content)).toEqual([
      'the first topic',
      'You said: "the first topic" (3 words).',
      'continue from here',
    ]);
    expect(
      checkLogInvariants(child.events, { inheritedEventCount: child.inheritedEventCount, closedTurns: true }),
    ).toEqual([]);
    expect(toolResults(parent.agent.session.events)[0]!.content).toContain('forked with');
    parent.release();
  });

  it('a fork requested before the parent closed any turn is refused SUBAGENT_CONTROL_FORK_EMPTY', async () => {
    f = await agentFixture();
    const parent = await f.controller.create();
    await parent.agent.prompt(spawnLine({ task: 'x', fork: true }));
    expect(toolResults(parent.agent.session.events)[0]).toMatchObject({
      isError: true,
      code: 'SUBAGENT_CONTROL_FORK_EMPTY',
    });
    expect(await f.query.listSessions()).toHaveLength(1);
    parent.release();
  });

  it('a continuable child without a label is refused SUBAGENT_CONTROL_LABEL_REQUIRED', async () => {
    f = await agentFixture();
    const parent = await f.controller.create();
    await parent.agent.prompt(spawnLine({ task: 'x', mode: 'continuable' }));
    expect(toolResults(parent.agent.session.events)[0]).toMatchObject({
      isError: true,
      code: 'SUBAGENT_CONTROL_LABEL_REQUIRED',
    });
    parent.release();
  });

  it('children nest up to the depth limit; a spawn beyond it is refused SUBAGENT_CONTROL_DEPTH_LIMIT', async () => {
    f = await agentFixture({ maxDelegationDepth: 2 });
    const parent = await f.controller.create();
    // s-2 (depth 1) spawns s-3 (depth 2), whose own spawn would be depth 3.
    const grandchildTask = spawnLine({ task: 'go deeper' });
    const childTask = spawnLine({ task: grandchildTask });
    await parent.agent.prompt(spawnLine({ task: childTask }));
    await f.controller.whenSettled();
    const depthOf = async (id: string): Promise<number | undefined> =>
      (await f.persistence.inspect(SessionId(id))).header.delegationDepth;
    expect(await depthOf('s-2')).toBe(1);
    expect(await depthOf('s-3')).toBe(2);
    expect((await f.query.listSessions()).map((row) => row.header.id).sort()).toEqual(['s-1', 's-2', 's-3']);
    const refused = toolResults(await f.stored('s-3'))[0]!;
    expect(refused).toMatchObject({ isError: true, code: 'SUBAGENT_CONTROL_DEPTH_LIMIT' });
    expect(refused.content).toContain('the limit is 2');
    parent.release();
  });

  it('cancelling the parent cancels the child it is waiting for; both turns end aborted', async () => {
    const hanging = new ScriptedModel({ script: [{ text: 'thinking', hang: true }] });
    f = await agentFixture({
      model: ({ header }) => (header.origin === 'subagent' ? hanging : new ScriptedModel()),
    });
    const parent = await f.controller.create();
    const running = parent.agent.prompt(spawnLine({ task: 'slow work' }));
    await eventually(
      () =>
        f.controller.agent(SessionId('s-2'))?.session.events.some((e) => e.type === 'request/header') ===
        true,
    );
    parent.agent.cancel();
    expect((await running).reason).toBe('aborted');
    await f.controller.whenSettled();
    expect((await f.stored('s-2')).at(-1)?.data).toMatchObject({ reason: 'aborted' });
    expect(parent.agent.session.events.at(-1)?.data).toMatchObject({ reason: 'aborted' });
    parent.release();
  });
});
