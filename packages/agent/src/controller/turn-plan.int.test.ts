import { afterEach, describe, expect, it } from 'vitest';
import type { SessionEvent, SessionHeader, SessionId } from '@strand/session';
import { AgentError, isAgentError } from '../errors.js';
import type { Model, ModelRequest, ModelResolver, ModelStreamPart } from '../model/model.js';
import { ModelSet, SCRIPTED_ROUTE } from '../model/model-set.js';
import { ScriptedModel } from '../model/scripted/scripted-model.js';
import { agentFixture, type AgentFixture } from '../testing/agent-fixture.js';
import { defineTool } from '../tools/tool.js';
import { ToolRegistry } from '../tools/tool-registry.js';

let f: AgentFixture;
afterEach(async () => {
  await f.close();
});

const dataOf = (events: readonly SessionEvent[], type: string): unknown[] =>
  events.filter((e) => e.type === type).map((e) => e.data);

let runs = 0;
const countingTool = defineTool<unknown>({
  name: 'count_tool',
  description: 'counts its runs',
  parameters: { type: 'object' },
  parse: (raw) => raw,
  run: () => {
    runs++;
    return Promise.resolve({ content: `run ${runs}` });
  },
});

/** The scripted model, recording the tool names each request offered. */
function recording(route = SCRIPTED_ROUTE): Model & { offered: string[][] } {
  const inner = new ScriptedModel({ route });
  const offered: string[][] = [];
  return {
    route: inner.route,
    offered,
    stream(request: ModelRequest) {
      offered.push(request.tools.map((t) => t.name));
      return inner.stream(request);
    },
  };
}

/** Tools bounded by preset the way the host runtime does: solo allows none, an unknown preset is refused. */
const all = new ToolRegistry([countingTool]);
const byPreset = ({ preset }: { preset: string | null }): ToolRegistry => {
  if (preset === null || preset === 'general') return all;
  if (preset === 'solo') return all.only([]);
  throw new AgentError('AGENT_PRESET_UNAVAILABLE', `no preset ${preset}`);
};

describe('a preset bounds the tools of a turn', () => {
  it('a tool outside the preset is not offered, and a call to it gets AGENT_TOOL_NOT_ALLOWED without running', async () => {
    const model = recording();
    f = await agentFixture({ tools: byPreset, model });
    runs = 0;
    const lease = await f.controller.create({ agentPreset: 'solo' });
    const outcome = await lease.agent.prompt('call count_tool {}');
    expect(outcome.reason).toBe('completed');
    expect(runs).toBe(0);
    expect(model.offered[0]).toEqual([]);
    expect(dataOf(lease.agent.session.events, 'tool/result')[0]).toMatchObject({
      isError: true,
      code: 'AGENT_TOOL_NOT_ALLOWED',
    });
    lease.release();
  });

  it('the same call runs on a preset that allows it, and a preset selected later applies from the next turn', async () => {
    const model = recording();
    f = await agentFixture({ tools: byPreset, model });
    runs = 0;
    const lease = await f.controller.create({ agentPreset: 'general' });
    await lease.agent.prompt('call count_tool {}');
    expect(runs).toBe(1);
    expect(model.offered[0]).toEqual(['count_tool']);
    await lease.agent.session.append({ type: 'agent-preset/select', data: { preset: 'solo' } });
    await lease.agent.prompt('call count_tool {}');
    expect(runs).toBe(1);
    expect(dataOf(lease.agent.session.events, 'tool/result').at(-1)).toMatchObject({
      code: 'AGENT_TOOL_NOT_ALLOWED',
    });
    lease.release();
  });

  it('a preset the host does not know refuses the turn before anything is appended', async () => {
    f = await agentFixture({ tools: byPreset });
    const lease = await f.controller.create({ agentPreset: 'retired' });
    await expect(f.controller.prompt(lease.agent.id, 'hello')).rejects.toSatisfy((e) =>
      isAgentError(e, 'AGENT_PRESET_UNAVAILABLE'),
    );
    expect(lease.agent.session.events).toEqual([]);
    expect(lease.agent.status).toBe('idle');
    lease.release();
  });
});

describe('the model a turn runs on', () => {
  const other = { provider: 'other', model: 'm' };
  const models = (): ModelSet =>
    new ModelSet([{ model: new ScriptedModel({ route: other }), label: 'other' }], {
      defaultRoute: SCRIPTED_ROUTE,
    });

  it('a pending selection takes effect at the next turn and request/header records it', async () => {
    f = await agentFixture({ model: models().resolver() });
    const lease = await f.controller.create();
    await lease.agent.prompt('first');
    await lease.agent.session.append({ type: 'model/selection', data: other });
    await lease.agent.prompt('second');
    expect(dataOf(lease.agent.session.events, 'request/header')).toEqual([SCRIPTED_ROUTE, other]);
    lease.release();
  });

  it('a recorded model this host does not have refuses the turn (AGENT_MODEL_UNAVAILABLE) and appends nothing', async () => {
    f = await agentFixture({ model: models().resolver() });
    const lease = await f.controller.create({ model: { provider: 'gone', model: 'x' } });
    const before = lease.agent.session.events.length;
    await expect(f.controller.prompt(lease.agent.id, 'hello')).rejects.toSatisfy((e) =>
      isAgentError(e, 'AGENT_MODEL_UNAVAILABLE'),
    );
    await expect(lease.agent.prompt('hello')).rejects.toSatisfy((e) =>
      isAgentError(e, 'AGENT_MODEL_UNAVAILABLE'),
    );
    expect(lease.agent.session.events).toHaveLength(before);
    expect(lease.agent.status).toBe('idle');
    lease.release();
  });

  it("a prompt's model override runs the turn there whatever the session selected", async () => {
    f = await agentFixture({ model: models().resolver() });
    const lease = await f.controller.create({ model: other });
    await lease.agent.prompt('tick', { model: SCRIPTED_ROUTE });
    expect(dataOf(lease.agent.session.events, 'request/header')).toEqual([SCRIPTED_ROUTE]);
    lease.release();
  });
});

describe('a turn keeps the model and preset it started with', () => {
  const A = { provider: 'test', model: 'a' };
  const B = { provider: 'test', model: 'b' };

  interface SeenRequest {
    readonly session: SessionId;
    readonly model: string;
    readonly system: string | undefined;
    readonly tools: readonly string[];
  }

  /**
   * Models by route (`selection.model`, else `a`) for the sessions `served` picks (the others get
   * the scripted model). Each request that does not follow a tool result calls `tool`, so a turn
   * takes two requests; the very first such request waits for `release()` (`arrived` resolves once
   * it is made), which lets a test choose between a turn's two requests.
   */
  function holdingFirstRequest(
    tool: { readonly name: string; readonly arguments: string },
    served: (header: SessionHeader) => boolean = () => true,
  ): { resolver: ModelResolver; requests: SeenRequest[]; arrived: Promise<void>; release: () => void } {
    const requests: SeenRequest[] = [];
    let arrive!: () => void;
    let release!: () => void;
    const arrived = new Promise<void>((resolve) => (arrive = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    let held = false;
    const resolver: ModelResolver = ({ header, selection }) => {
      if (!served(header)) return new ScriptedModel();
      const route = { provider: 'test', model: selection?.model ?? 'a' };
      return {
        route,
        async *stream(request: ModelRequest): AsyncIterable<ModelStreamPart> {
          const system = request.messages.find((m) => m.role === 'system');
          requests.push({
            session: header.id,
            model: route.model,
            system: system?.content,
            tools: request.tools.map((t) => t.name),
          });
          if (request.messages.at(-1)?.role === 'tool') {
            yield { type: 'text-delta', text: `answered by ${route.model}` };
            yield { type: 'finish', reason: 'stop' };
            return;
          }
          if (!held) {
            held = true;
            arrive();
            await released;
          }
          yield { type: 'tool-call', call: { id: `call-${requests.length}`, ...tool } };
          yield { type: 'finish', reason: 'tool-calls' };
        },
      };
    };
    return { resolver, requests, arrived, release };
  }

  it('a model and a preset selected between its two requests serve the next turn, not its second request', async () => {
    const models = holdingFirstRequest({ name: 'count_tool', arguments: '{}' });
    f = await agentFixture({
      model: models.resolver,
      tools: byPreset,
      instructions: ({ preset }) => `You are ${preset ?? 'nobody'}.`,
    });
    runs = 0;
    const lease = await f.controller.create({ agentPreset: 'general', model: A });
    const turn = lease.agent.prompt('work');
    await models.arrived;
    await lease.agent.session.append([
      { type: 'model/selection', data: B },
      { type: 'agent-preset/select', data: { preset: 'solo' } },
    ]);
    models.release();
    expect((await turn).reason).toBe('completed');
    expect(runs).toBe(1);
    const general = {
      session: lease.agent.id,
      model: 'a',
      system: 'You are general.',
      tools: ['count_tool'],
    };
    expect(models.requests).toEqual([general, general]);
    expect(dataOf(lease.agent.session.events, 'request/header')).toEqual([A, A]);

    await lease.agent.prompt('more');
    const solo = { session: lease.agent.id, model: 'b', system: 'You are solo.', tools: [] };
    expect(models.requests.slice(2)).toEqual([solo, solo]);
    expect(runs).toBe(1);
    expect(dataOf(lease.agent.session.events, 'request/header')).toEqual([A, A, B, B]);
    lease.release();
  });

  it("a subagent child's turn keeps its model too; a selection made during it serves the child's next turn", async () => {
    const models = holdingFirstRequest(
      { name: 'list_agents', arguments: '{"scope":"children"}' },
      (header) => header.origin === 'subagent',
    );
    f = await agentFixture({ model: models.resolver });
    const parent = await f.controller.create();
    const spawned = parent.agent.prompt(
      `call spawn_agent ${JSON.stringify({ task: 'first task', mode: 'continuable', label: 'helper' })}`,
    );
    await models.arrived;
    const child = f.controller.agent(models.requests[0]!.session);
    expect(child?.isChild).toBe(true);
    await child!.session.append({ type: 'model/selection', data: B });
    models.release();
    expect((await spawned).reason).toBe('completed');
    expect(models.requests.map((r) => r.model)).toEqual(['a', 'a']);

    expect((await parent.agent.prompt(`tell ${child!.id}: second task`)).reason).toBe('completed');
    expect(models.requests.map((r) => r.model)).toEqual(['a', 'a', 'b', 'b']);
    await f.controller.whenSettled();
    const routes = (await f.stored(child!.id)).filter((e) => e.type === 'request/header').map((e) => e.data);
    expect(routes).toEqual([A, A, B, B]);
    parent.release();
  });
});
