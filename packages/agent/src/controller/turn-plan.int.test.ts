import { afterEach, describe, expect, it } from 'vitest';
import type { SessionEvent } from '@strand/session';
import { AgentError, isAgentError } from '../errors.js';
import type { Model, ModelRequest } from '../model/model.js';
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
