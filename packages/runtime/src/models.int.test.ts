import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { persistenceWriter } from '@strand/persistence';
import type { SessionListRow, WireEvent } from '@strand/protocol';
import { Session, SessionId, newSessionHeader } from '@strand/session';
import {
  answerWith,
  finishChunk,
  mockChatServer,
  sse,
  startStream,
  type ChatHandler,
  type MockChatServer,
} from '@strand/test-support';
import type { RpcTestClient } from './testing/host-fixture.js';
import { startTestHost, type TestHost } from './testing/test-host.js';
import type { RuntimeOptions } from './runtime-options.js';
import type { StrandRuntime } from './strand-runtime.js';

/**
 * Several models side by side: the built-in scripted one and a local OpenAI-compatible endpoint
 * (a real HTTP server on 127.0.0.1 that records every request). A person's choice decides where a
 * turn goes, `request/header` says where it went, and choices the host cannot honour are refused.
 */
let server: MockChatServer;
let t: TestHost | undefined;
let runtime: StrandRuntime | undefined;
let client: RpcTestClient | undefined;

const SCRIPTED = { provider: 'strand', model: 'scripted' };
const LOCAL = { provider: 'local', model: 'tiny-1' };

beforeEach(async () => {
  server = await mockChatServer();
  server.handle(answerWith('answered by the endpoint', { input: 7, output: 4 }));
});

afterEach(async () => {
  await t?.close();
  await server.close();
  t = client = runtime = undefined;
});

async function start(options: Omit<RuntimeOptions, 'dataDir'> = {}): Promise<RpcTestClient> {
  t = await startTestHost({
    prefix: 'strand-models',
    runtime: {
      models: [{ ...LOCAL, baseUrl: server.baseUrl, label: 'Tiny (local)' }],
      syncSearch: false,
      ...options,
    },
  });
  runtime = t.runtime;
  client = await t.connect();
  return client;
}

async function eventsOf(id: string): Promise<readonly WireEvent[]> {
  const page = await client!.call<{ events: WireEvent[] }>('session.page', { id, fromSeq: 0, limit: 1000 });
  return page.events;
}

const headers = (events: readonly WireEvent[]): unknown[] =>
  events.filter((e) => e.type === 'request/header').map((e) => e.data);

/** Prompts over the wire and waits until the turn has ended (the controller settles). */
async function turn(id: string, text: string): Promise<void> {
  await client!.call('session.prompt', { id, text });
  await runtime!.agents.whenSettled();
}

async function errorOf(method: string, params: unknown): Promise<{ code: number; data: { code: string } }> {
  const reply = await client!.request(method, params);
  expect(reply.error, `${method} should be refused`).toBeDefined();
  return reply.error as { code: number; data: { code: string } };
}

describe('several models, one host', () => {
  it('catalog.models lists exactly the scripted model and the configured endpoints, the default marked', async () => {
    const c = await start();
    const { models } = await c.call<{ models: unknown[] }>('catalog.models');
    // The first endpoint is the default when the configuration names none.
    expect(models).toEqual([
      { ...SCRIPTED, label: 'Scripted (built-in, deterministic)' },
      { ...LOCAL, label: 'Tiny (local)', isDefault: true },
    ]);
  });

  it('each turn goes where the session selected, and request/header records that route', async () => {
    const c = await start();
    const { id } = await c.call<{ id: string }>('session.create', { model: SCRIPTED });
    await turn(id, 'first on scripted');
    expect(server.requests).toHaveLength(0);

    await c.call('session.selectModel', { id, ...LOCAL });
    await turn(id, 'second on the endpoint');
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.body).toMatchObject({ model: 'tiny-1', stream: true });

    await c.call('session.selectModel', { id, ...SCRIPTED });
    await turn(id, 'third on scripted again');
    expect(server.requests).toHaveLength(1);

    const events = await eventsOf(id);
    expect(headers(events)).toEqual([SCRIPTED, LOCAL, SCRIPTED]);
    const answers = events
      .filter((e) => e.type === 'assistant/message')
      .map((e) => (e.data as { content: string }).content);
    expect(answers[1]).toBe('answered by the endpoint');
    expect(answers[2]).toMatch(/^You said/);
  });

  it('a session that never selected a model runs on the configured default', async () => {
    const c = await start({ defaultModel: SCRIPTED });
    const { id } = await c.call<{ id: string }>('session.create', {});
    await turn(id, 'hello');
    expect(headers(await eventsOf(id))).toEqual([SCRIPTED]);
    expect(server.requests).toHaveLength(0);
  });

  it('selecting a model or preset the catalog does not list is refused with a typed error and appends nothing', async () => {
    const c = await start();
    const { id } = await c.call<{ id: string }>('session.create', { model: SCRIPTED, preset: 'general' });
    const before = await eventsOf(id);

    const model = await errorOf('session.selectModel', { id, provider: 'local', model: 'tiny-2' });
    expect(model).toMatchObject({ code: -32008, data: { code: 'HOST_MODEL_UNKNOWN' } });
    const preset = await errorOf('session.selectPreset', { id, preset: 'no-such-preset' });
    expect(preset).toMatchObject({ code: -32009, data: { code: 'HOST_PRESET_UNKNOWN' } });
    expect(await eventsOf(id)).toEqual(before);

    // Clearing the preset is always allowed.
    await c.call('session.selectPreset', { id, preset: null });
  });

  it('session.create with an unknown model or preset is refused and creates nothing', async () => {
    const c = await start();
    const model = await errorOf('session.create', { model: { provider: 'openai', model: 'gpt-9' } });
    expect(model.data.code).toBe('HOST_MODEL_UNKNOWN');
    const preset = await errorOf('session.create', { preset: 'no-such-preset', prompt: 'hi' });
    expect(preset.data.code).toBe('HOST_PRESET_UNKNOWN');
    const { sessions } = await c.call<{ sessions: SessionListRow[] }>('session.list');
    expect(sessions).toEqual([]);
  });

  it('a session whose recorded model is no longer configured gets AGENT_MODEL_UNAVAILABLE at its next turn, never a default', async () => {
    await start();
    // As a session imported from elsewhere (or written before the config changed) would be.
    const { persistence } = runtime!.services;
    const header = newSessionHeader({ id: SessionId('imported'), createdAt: 1_000 });
    const { incarnation } = await persistence.create({ header });
    const session = new Session({ header, incarnation, writer: persistenceWriter(persistence, header.id) });
    await session.append({ type: 'model/selection', data: { provider: 'retired', model: 'old-1' } });
    await persistence.flush();

    const refused = await errorOf('session.prompt', { id: 'imported', text: 'hello?' });
    expect(refused).toMatchObject({
      code: -32052,
      data: { code: 'AGENT_MODEL_UNAVAILABLE', model: 'old-1' },
    });
    await runtime!.agents.whenSettled();
    expect((await eventsOf('imported')).map((e) => e.type)).toEqual(['model/selection']);
    expect(server.requests).toHaveLength(0);
  });
});

describe('a preset bounds the tools', () => {
  it('a solo session is not offered spawn_agent, and a call to it is refused AGENT_TOOL_NOT_ALLOWED: no child is created', async () => {
    const c = await start();
    const { id } = await c.call<{ id: string }>('session.create', { model: SCRIPTED, preset: 'solo' });
    await turn(id, 'spawn a one-shot agent "helper": count the files');
    const results = (await eventsOf(id)).filter((e) => e.type === 'tool/result').map((e) => e.data);
    expect(results).toEqual([expect.objectContaining({ isError: true, code: 'AGENT_TOOL_NOT_ALLOWED' })]);
    const { sessions } = await c.call<{ sessions: SessionListRow[] }>('session.list');
    expect(sessions.map((s) => s.id)).toEqual([id]);
  });

  it('the tools offered to an endpoint follow the preset: none for solo, the subagent tools for general', async () => {
    const c = await start();
    const solo = await c.call<{ id: string }>('session.create', { model: LOCAL, preset: 'solo' });
    await turn(solo.id, 'hello');
    const general = await c.call<{ id: string }>('session.create', { model: LOCAL, preset: 'general' });
    await turn(general.id, 'hello');
    const offered = server.requests.map((r) =>
      ((r.body.tools as { function: { name: string } }[] | undefined) ?? []).map((t) => t.function.name),
    );
    expect(offered).toEqual([[], ['spawn_agent', 'send_message', 'list_agents']]);
  });

  it('a general session may spawn: the same call runs', async () => {
    const c = await start();
    const { id } = await c.call<{ id: string }>('session.create', { model: SCRIPTED, preset: 'general' });
    await turn(id, 'spawn a one-shot agent "helper": count the files');
    const results = (await eventsOf(id)).filter((e) => e.type === 'tool/result').map((e) => e.data);
    expect(results).toEqual([expect.not.objectContaining({ isError: true })]);
  });
});

describe('a turn keeps the model and preset it started with', () => {
  const A = { provider: 'local', model: 'model-a' };
  const B = { provider: 'local', model: 'model-b' };

  /**
   * The first request of the turn is held until the test lets it answer (with a `list_agents`
   * call, so the turn needs a second request); `arrived` resolves once the endpoint has it.
   */
  function heldToolCall(): { handler: ChatHandler; arrived: Promise<void>; answer: () => void } {
    let arrive!: () => void;
    let answer!: () => void;
    const arrived = new Promise<void>((resolve) => (arrive = resolve));
    const answered = new Promise<void>((resolve) => (answer = resolve));
    return {
      arrived,
      answer,
      async handler(_request, response) {
        arrive();
        await answered;
        startStream(response);
        const call = {
          index: 0,
          id: 'call_1',
          type: 'function',
          function: { name: 'list_agents', arguments: '{"scope":"children"}' },
        };
        response.write(sse({ choices: [{ index: 0, delta: { tool_calls: [call] } }] }));
        response.write(sse(finishChunk('tool_calls')));
        response.end('data: [DONE]\n\n');
      },
    };
  }

  const offeredTools = (): string[][] =>
    server.requests.map((r) =>
      ((r.body.tools as { function: { name: string } }[] | undefined) ?? []).map((t) => t.function.name),
    );

  it('a model and a preset selected between its two requests serve the next turn, not its second request', async () => {
    const c = await start({
      models: [
        { ...A, baseUrl: server.baseUrl },
        { ...B, baseUrl: server.baseUrl },
      ],
    });
    const first = heldToolCall();
    server.handle(first.handler, answerWith('answered'));
    const { id } = await c.call<{ id: string }>('session.create', { model: A, preset: 'general' });
    await c.call('session.prompt', { id, text: 'look at the agents' });
    await first.arrived;
    // The turn's first request is out and unanswered: choose another model and a preset with no tools.
    await c.call('session.selectModel', { id, ...B });
    await c.call('session.selectPreset', { id, preset: 'solo' });
    first.answer();
    await runtime!.agents.whenSettled();

    const general = ['spawn_agent', 'send_message', 'list_agents'];
    expect(server.requests.map((r) => r.body.model)).toEqual(['model-a', 'model-a']);
    expect(offeredTools()).toEqual([general, general]);
    const events = await eventsOf(id);
    expect(headers(events)).toEqual([A, A]);
    const results = events.filter((e) => e.type === 'tool/result').map((e) => e.data);
    expect(results).toEqual([expect.not.objectContaining({ isError: true })]);
    const ends = events.filter((e) => e.type === 'turn/end').map((e) => e.data);
    expect(ends).toEqual([{ reason: 'completed' }]);

    await turn(id, 'and now');
    expect(server.requests.map((r) => r.body.model)).toEqual(['model-a', 'model-a', 'model-b']);
    expect(offeredTools()).toEqual([general, general, []]);
    expect(headers(await eventsOf(id))).toEqual([A, A, B]);
  });
});
