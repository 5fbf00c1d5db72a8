import { afterEach, describe, expect, it } from 'vitest';
import { checkLogInvariants, type Session, type SessionEvent } from '@strand/session';
import type { AgentEvent } from '../agent.js';
import { isAgentError } from '../errors.js';
import type { ModelRequest } from '../model/model.js';
import { ScriptedModel } from '../model/scripted/scripted-model.js';
import { agentFixture, typesOf, type AgentFixture } from '../testing/agent-fixture.js';
import { defineTool } from '../tools/tool.js';
import { ToolRegistry } from '../tools/tool-registry.js';
import { eventually } from '@strand/test-support';

let f: AgentFixture;
afterEach(async () => {
  await f.close();
});

const dataOf = (events: readonly SessionEvent[], type: string): unknown[] =>
  events.filter((e) => e.type === type).map((e) => e.data);

/** A tool that echoes its arguments, or waits for cancellation when asked to. */
const echoTool = defineTool<{ text?: string; wait?: boolean }>({
  name: 'echo_tool',
  description: 'echo',
  parameters: { type: 'object' },
  parse: (raw) => raw as { text?: string; wait?: boolean },
  run: async (args, context) => {
    if (args.wait === true) {
      await new Promise((_, reject) =>
        context.signal.addEventListener('abort', () => reject(new Error('stopped')), { once: true }),
      );
    }
    return { content: `echo: ${args.text ?? ''}` };
  },
});

describe('turn event sequences', () => {
  it('a prompt appends turn/start, user/message, a step with request/header and assistant/message with usage, turn/end completed', async () => {
    f = await agentFixture();
    const lease = await f.controller.create({ cwd: '/work' });
    const outcome = await lease.agent.prompt('hello there');
    expect(outcome).toMatchObject({ reason: 'completed', text: 'You said: "hello there" (2 words).' });
    const events = lease.agent.session.events;
    expect(typesOf(events)).toEqual([
      'turn/start',
      'user/message',
      'step/start',
      'request/header',
      'assistant/message',
      'step/end',
      'session/title',
      'turn/end',
    ]);
    expect(events[1]!.data).toEqual({ content: 'hello there', author: 'human' });
    expect(events[3]!.data).toEqual({ provider: 'strand', model: 'scripted' });
    expect(events[4]!.data).toMatchObject({
      content: 'You said: "hello there" (2 words).',
      usage: { input: 3, output: 9 },
    });
    expect(events[6]!.data).toEqual({ title: 'hello there' });
    expect(events[7]!.data).toEqual({ reason: 'completed' });
    expect(outcome.turnStartSeq).toBe(0);
    lease.release();
    await f.controller.whenSettled();
    expect(await f.stored(lease.agent.id)).toEqual(events);
  });

  it('a tool call appends tool/call and tool/result inside the step, then a second step answers', async () => {
    f = await agentFixture({ tools: new ToolRegistry([echoTool]) });
    const lease = await f.controller.create();
    const outcome = await lease.agent.prompt('call echo_tool {"text":"ping"}');
    const events = lease.agent.session.events;
    expect(typesOf(events)).toEqual([
      'turn/start',
      'user/message',
      'step/start',
      'request/header',
      'assistant/message',
      'tool/call',
      'tool/result',
      'step/end',
      'step/start',
      'request/header',
      'assistant/message',
      'step/end',
      'session/title',
      'turn/end',
    ]);
    const [call] = dataOf(events, 'tool/call') as { callId: string; name: string; arguments: string }[];
    expect(call).toMatchObject({ name: 'echo_tool', arguments: '{"text":"ping"}' });
    expect(dataOf(events, 'assistant/message')[0]).toMatchObject({
      toolCalls: [{ id: call!.callId, name: 'echo_tool' }],
    });
    expect(dataOf(events, 'tool/result')).toEqual([{ callId: call!.callId, content: 'echo: ping' }]);
    expect(outcome.text).toBe('Tool results:\n- echo_tool: echo: ping');
    lease.release();
  });

  it('an unknown tool becomes an error tool/result with AGENT_TOOL_UNKNOWN and the turn still completes', async () => {
    f = await agentFixture({ tools: new ToolRegistry([]) });
    const lease = await f.controller.create();
    const outcome = await lease.agent.prompt('call no_such_tool {}');
    expect(outcome.reason).toBe('completed');
    expect(dataOf(lease.agent.session.events, 'tool/result')[0]).toMatchObject({
      isError: true,
      code: 'AGENT_TOOL_UNKNOWN',
    });
    lease.release();
  });

  it('request/header records the route of each request; the resolver sees the model/selection chosen at creation', async () => {
    const seen: unknown[] = [];
    f = await agentFixture({
      model: ({ selection }) => {
        seen.push(selection);
        return new ScriptedModel({ route: { provider: 'test', model: selection?.model ?? 'default' } });
      },
    });
    const lease = await f.controller.create({ model: { provider: 'test', model: 'picked' } });
    await lease.agent.prompt('hi');
    await lease.agent.prompt('again');
    expect(seen).toEqual([
      { provider: 'test', model: 'picked' },
      { provider: 'test', model: 'picked' },
    ]);
    expect(dataOf(lease.agent.session.events, 'request/header')).toEqual([
      { provider: 'test', model: 'picked' },
      { provider: 'test', model: 'picked' },
    ]);
    expect(lease.agent.session.events[0]!.type).toBe('model/selection');
    lease.release();
  });

  it('a turn that keeps calling tools ends error AGENT_STEP_LIMIT after maxSteps steps', async () => {
    f = await agentFixture({
      maxSteps: 2,
      tools: new ToolRegistry([echoTool]),
      model: new ScriptedModel({
        script: [{ toolCalls: [{ name: 'echo_tool' }] }, { toolCalls: [{ name: 'echo_tool' }] }],
      }),
    });
    const lease = await f.controller.create();
    const outcome = await lease.agent.prompt('loop');
    expect(outcome.reason).toBe('error');
    expect(outcome.error?.code).toBe('AGENT_STEP_LIMIT');
    expect(lease.agent.session.events.filter((e) => e.type === 'step/start')).toHaveLength(2);
    expect(checkLogInvariants(lease.agent.session.events, { closedTurns: true })).toEqual([]);
    lease.release();
  });
});

describe('presets', () => {
  it("a turn's tools and instructions follow the session's agentPreset projection", async () => {
    const requests: ModelRequest[] = [];
    const all = new ToolRegistry([echoTool]);
    f = await agentFixture({
      tools: ({ preset }) => (preset === 'solo' ? all.only([]) : all),
      instructions: ({ preset }) => `you are ${preset ?? 'nobody'}`,
      model: new ScriptedModel({
        script: [(r) => (requests.push(r), { text: 'a' }), (r) => (requests.push(r), { text: 'b' })],
      }),
    });
    const lease = await f.controller.create({ agentPreset: 'solo' });
    await lease.agent.prompt('one');
    await lease.agent.session.append({ type: 'agent-preset/select', data: { preset: 'general' } });
    await lease.agent.prompt('two');
    expect(requests.map((r) => [r.messages[0]?.content, r.tools.map((t) => t.name)])).toEqual([
      ['you are solo', []],
      ['you are general', ['echo_tool']],
    ]);
    lease.release();
  });
});

describe('titles', () => {
  it('the first completed turn titles an untitled session from its prompt; later turns do not', async () => {
    f = await agentFixture();
    const lease = await f.controller.create();
    await lease.agent.prompt('Refactor the persistence layer\nand add tests');
    await lease.agent.prompt('Now something else entirely');
    expect(dataOf(lease.agent.session.events, 'session/title')).toEqual([
      { title: 'Refactor the persistence layer' },
    ]);
    expect(f.registry.snapshot(lease.agent.session, ['title']).values.title).toBe(
      'Refactor the persistence layer',
    );
    lease.release();
  });

  it('the title is written inside the turn, before turn/end: a prompt sent the moment turn/end is seen is accepted', async () => {
    f = await agentFixture();
    const lease = await f.controller.create();
    const session = lease.agent.session;
    // A client sees turn/end once it is durable and answers no sooner than the next turn of the
    // event loop (setImmediate: a round trip at its fastest, no clock).
    const next = new Promise<unknown>((resolve) => {
      const off = session.subscribe((events) => {
        if (!events.some((e) => e.type === 'turn/end')) return;
        off();
        setImmediate(() => {
          lease.agent.prompt('and the next one').then(resolve, resolve);
        });
      });
    });
    await lease.agent.prompt('Name this session after me');
    expect(await next).toMatchObject({ reason: 'completed' });
    const types = typesOf(session.events);
    expect(types.slice(0, 8)).toEqual([
      'turn/start',
      'user/message',
      'step/start',
      'request/header',
      'assistant/message',
      'step/end',
      'session/title',
      'turn/end',
    ]);
    expect(types.filter((type) => type === 'turn/end')).toHaveLength(2);
    lease.release();
  });

  it('a rename before the first turn wins: no title is derived', async () => {
    f = await agentFixture();
    const lease = await f.controller.create();
    await lease.agent.session.append({ type: 'session/title', data: { title: 'Chosen by a person' } });
    await lease.agent.prompt('a prompt that would make a title');
    expect(dataOf(lease.agent.session.events, 'session/title')).toEqual([{ title: 'Chosen by a person' }]);
    lease.release();
  });

  it('a rename while the first turn runs wins as well', async () => {
    const ref: { session?: Session } = {};
    const model = new ScriptedModel({
      script: [
        () => {
          // A person renames the session while the model is answering.
          void ref.session!.append({ type: 'session/title', data: { title: 'Renamed mid-turn' } });
          return { text: 'ok' };
        },
      ],
    });
    f = await agentFixture({ model });
    const lease = await f.controller.create();
    ref.session = lease.agent.session;
    await lease.agent.prompt('a prompt that would make a title');
    expect(dataOf(ref.session.events, 'session/title')).toEqual([{ title: 'Renamed mid-turn' }]);
    lease.release();
  });

  it('a turn that does not complete derives no title', async () => {
    f = await agentFixture({
      model: new ScriptedModel({ script: [{ fail: { code: 'AGENT_MODEL_FAILED', message: 'boom' } }] }),
    });
    const lease = await f.controller.create();
    await lease.agent.prompt('this fails');
    expect(dataOf(lease.agent.session.events, 'session/title')).toEqual([]);
    lease.release();
  });
});

describe('cancellation and failures', () => {
  it('cancel ends the turn aborted, keeps the partial answer and closes the open step', async () => {
    f = await agentFixture({
      model: new ScriptedModel({ script: [{ text: 'partial answer', hang: true }] }),
    });
    const lease = await f.controller.create();
    let draft = '';
    lease.agent.subscribe((event: AgentEvent) => {
      if (event.kind === 'draft') draft = event.text;
    });
    const running = lease.agent.prompt('take your time');
    await eventually(() => draft === 'partial answer');
    expect(lease.agent.cancel()).toBe(true);
    const outcome = await running;
    expect(outcome.reason).toBe('aborted');
    expect(outcome.error?.code).toBe('AGENT_CANCELLED');
    const events = lease.agent.session.events;
    expect(typesOf(events).slice(-3)).toEqual(['assistant/message', 'step/end', 'turn/end']);
    expect(events.at(-3)!.data).toEqual({ content: 'partial answer' });
    expect(events.at(-1)!.data).toMatchObject({ reason: 'aborted' });
    expect(checkLogInvariants(events, { closedTurns: true })).toEqual([]);
    expect(lease.agent.status).toBe('idle');
    lease.release();
  });

  it('cancel during a tool call answers the running call as cancelled and the unstarted one as not run', async () => {
    f = await agentFixture({
      tools: new ToolRegistry([echoTool]),
      model: new ScriptedModel({
        script: [
          {
            toolCalls: [
              { name: 'echo_tool', arguments: { wait: true } },
              { name: 'echo_tool', arguments: { text: 'never' } },
            ],
          },
        ],
      }),
    });
    const lease = await f.controller.create();
    const running = lease.agent.prompt('two calls');
    await eventually(() => lease.agent.session.events.some((e) => e.type === 'tool/call'));
    lease.agent.cancel();
    expect((await running).reason).toBe('aborted');
    const results = dataOf(lease.agent.session.events, 'tool/result');
    expect(results).toEqual([
      expect.objectContaining({ isError: true, code: 'AGENT_CANCELLED' }),
      expect.objectContaining({ isError: true, code: 'AGENT_TOOL_NOT_RUN' }),
    ]);
    expect(dataOf(lease.agent.session.events, 'tool/call')).toHaveLength(1);
    expect(checkLogInvariants(lease.agent.session.events, { closedTurns: true })).toEqual([]);
    lease.release();
  });

  it('a prompt whose signal aborts is cancelled the same way', async () => {
    f = await agentFixture({ model: new ScriptedModel({ script: [{ hang: true }] }) });
    const lease = await f.controller.create();
    const controller = new AbortController();
    const running = lease.agent.prompt('x', { signal: controller.signal });
    controller.abort();
    expect((await running).reason).toBe('aborted');
    lease.release();
  });

  it('a model failure ends the turn error with the model error code', async () => {
    f = await agentFixture({
      model: new ScriptedModel({ script: [{ fail: { code: 'AGENT_MODEL_FAILED', message: 'HTTP 500' } }] }),
    });
    const lease = await f.controller.create();
    const outcome = await lease.agent.prompt('fail please');
    expect(outcome.reason).toBe('error');
    expect(outcome.error?.code).toBe('AGENT_MODEL_FAILED');
    expect(lease.agent.session.events.at(-1)!.data).toEqual({
      reason: 'error',
      error: 'AGENT_MODEL_FAILED: HTTP 500',
    });
    expect(checkLogInvariants(lease.agent.session.events, { closedTurns: true })).toEqual([]);
    lease.release();
  });

  it('a model stream cut mid-way ends the turn interrupted', async () => {
    f = await agentFixture({
      model: new ScriptedModel({
        script: [{ text: 'half', fail: { code: 'AGENT_MODEL_INTERRUPTED', message: 'socket closed' } }],
      }),
    });
    const lease = await f.controller.create();
    const outcome = await lease.agent.prompt('stream please');
    expect(outcome).toMatchObject({ reason: 'interrupted', text: 'half' });
    expect(lease.agent.session.events.at(-1)!.data).toMatchObject({ reason: 'interrupted' });
    lease.release();
  });

  it('a model that ignores its signal still cannot hold a cancelled turn', async () => {
    const deaf = {
      route: { provider: 'test', model: 'deaf' },
      // eslint-disable-next-line require-yield -- never yields: it hangs without looking at the signal
      async *stream() {
        await new Promise(() => undefined);
      },
    };
    f = await agentFixture({ model: deaf });
    const lease = await f.controller.create();
    const running = lease.agent.prompt('x');
    await eventually(() => lease.agent.session.events.some((e) => e.type === 'request/header'));
    lease.agent.cancel();
    expect((await running).reason).toBe('aborted');
    lease.release();
  });
});

describe('status', () => {
  it('reports running then idle to agent and controller subscribers; a second prompt while running is AGENT_BUSY', async () => {
    f = await agentFixture({ model: new ScriptedModel({ script: [{ text: 'slow', hang: true }] }) });
    const lease = await f.controller.create();
    const agentStatuses: string[] = [];
    const controllerStatuses: string[] = [];
    lease.agent.subscribe((event) => event.kind === 'status' && agentStatuses.push(event.status));
    f.controller.onChange((change) => change.kind === 'status' && controllerStatuses.push(change.status));
    const running = lease.agent.prompt('one');
    expect(lease.agent.status).toBe('running');
    expect(f.controller.status(lease.agent.id)).toBe('running');
    await expect(lease.agent.prompt('two')).rejects.toSatisfy((error) => isAgentError(error, 'AGENT_BUSY'));
    lease.agent.cancel();
    await running;
    expect(agentStatuses).toEqual(['running', 'idle']);
    expect(controllerStatuses).toEqual(['running', 'idle']);
    lease.release();
  });
});
