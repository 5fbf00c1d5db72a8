import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkLogInvariants } from '@strand/session';
import { isAgentError } from '../../errors.js';
import { agentFixture, type AgentFixture } from '../../testing/agent-fixture.js';
import {
  ManualClock,
  finishChunk,
  latch,
  mockChatServer,
  pause,
  sse,
  startStream,
  textChunk,
  usageChunk,
  type MockChatServer,
} from '@strand/test-support';
import type { ModelRequest, ModelStreamPart } from '../model.js';
import { OpenAICompatibleModel } from './openai-compatible-model.js';

let server: MockChatServer;
beforeEach(async () => {
  server = await mockChatServer();
});
afterEach(async () => {
  await server.close();
});

const env = { TEST_KEY: 'sk-test' };

function model(options: { idleTimeoutMs?: number; timers?: ManualClock } = {}): OpenAICompatibleModel {
  return new OpenAICompatibleModel({
    baseUrl: server.baseUrl,
    model: 'gpt-test',
    apiKeyEnv: 'TEST_KEY',
    env,
    ...options,
  });
}

function request(signal = new AbortController().signal): ModelRequest {
  return {
    messages: [
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'hi' },
    ],
    tools: [{ name: 'spawn_agent', description: 'spawn', parameters: { type: 'object' } }],
    signal,
  };
}

async function collect(stream: AsyncIterable<ModelStreamPart>): Promise<ModelStreamPart[]> {
  const parts: ModelStreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

describe('OpenAICompatibleModel', () => {
  it('streams text deltas, then usage and finish; the request asks for a stream with usage and carries the key', async () => {
    server.handle(async (_, res) => {
      startStream(res);
      res.write(sse(textChunk('Hel')));
      await pause(5);
      res.write(sse(textChunk('lo')));
      res.write(sse(finishChunk('stop')));
      res.write(sse(usageChunk(12, 2)));
      res.end('data: [DONE]\n\n');
    });
    const parts = await collect(model().stream(request()));
    expect(parts).toEqual([
      { type: 'text-delta', text: 'Hel' },
      { type: 'text-delta', text: 'lo' },
      { type: 'usage', input: 12, output: 2 },
      { type: 'finish', reason: 'stop' },
    ]);
    const [received] = server.requests;
    expect(received!.headers.authorization).toBe('Bearer sk-test');
    expect(received!.body).toMatchObject({
      model: 'gpt-test',
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'hi' },
      ],
      tools: [
        {
          type: 'function',
          function: { name: 'spawn_agent', description: 'spawn', parameters: { type: 'object' } },
        },
      ],
    });
  });

  it('assembles tool calls from fragments split across chunks and across network writes', async () => {
    server.handle(async (_, res) => {
      startStream(res);
      const body =
        sse({
          choices: [
            {
              index: 0,
              delta: {
                tool_calls: [
                  {
                    index: 0,
                    id: 'call_a',
                    type: 'function',
                    function: { name: 'spawn_agent', arguments: '' },
                  },
                ],
              },
            },
          ],
        }) +
        sse({
          choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{"task":' } }] } }],
        }) +
        sse({
          choices: [
            {
              index: 0,
              delta: {
                tool_calls: [
                  {
                    index: 1,
                    id: 'call_b',
                    function: { name: 'list_agents', arguments: '{"scope":"children"}' },
                  },
                ],
              },
            },
          ],
        }) +
        sse({
          choices: [
            { index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '"look around"}' } }] } },
          ],
        }) +
        sse(finishChunk('tool_calls')) +
        sse(usageChunk(30, 9)) +
        'data: [DONE]\r\n\r\n';
      // Byte-sized writes split lines, JSON and CRLF pairs at every possible place.
      for (let i = 0; i < body.length; i += 7) {
        res.write(body.slice(i, i + 7));
        if (i % 70 === 0) await pause(1);
      }
      res.end();
    });
    const parts = await collect(model().stream(request()));
    expect(parts).toEqual([
      { type: 'tool-call', call: { id: 'call_a', name: 'spawn_agent', arguments: '{"task":"look around"}' } },
      { type: 'tool-call', call: { id: 'call_b', name: 'list_agents', arguments: '{"scope":"children"}' } },
      { type: 'usage', input: 30, output: 9 },
      { type: 'finish', reason: 'tool-calls' },
    ]);
  });

  it('a mid-stream disconnect fails with AGENT_MODEL_INTERRUPTED after the text already streamed, without waiting for the idle timer', async () => {
    const { opened: received, open: receive } = latch();
    server.handle(async (_, res) => {
      startStream(res);
      res.write(sse(textChunk('partial ')));
      await received; // the disconnect comes once the model has read the text
      res.socket?.destroy();
    });
    // The idle timer's clock never moves: the failure can only come from the disconnect itself.
    const clock = new ManualClock();
    const stream = model({ timers: clock }).stream(request())[Symbol.asyncIterator]();
    expect(await stream.next()).toEqual({ done: false, value: { type: 'text-delta', text: 'partial ' } });
    receive();
    const error = await stream.next().catch((e: unknown) => e);
    expect(isAgentError(error, 'AGENT_MODEL_INTERRUPTED')).toBe(true);
    expect((error as Error).message).toContain('the connection broke');
    expect(clock.now()).toBe(0);
  });

  it('a stream that stalls fails with AGENT_MODEL_INTERRUPTED once the idle timeout passes, not before, not never', async () => {
    let release!: () => void;
    const stalled = new Promise<void>((resolve) => (release = resolve));
    server.handle(async (_, res) => {
      startStream(res);
      res.write(sse(textChunk('then silence')));
      await stalled;
      res.end();
    });
    const clock = new ManualClock();
    const stream = model({ idleTimeoutMs: 200, timers: clock }).stream(request())[Symbol.asyncIterator]();
    expect(await stream.next()).toEqual({ done: false, value: { type: 'text-delta', text: 'then silence' } });
    let settled = false;
    const next = stream.next().then(
      () => (settled = true),
      (e: unknown) => ((settled = true), e),
    );
    await clock.whenArmed(); // the read of the next bytes armed the idle timer
    clock.advance(199);
    // Nothing else can end the read (the endpoint is stalled): with the timer still armed, it waits.
    expect(clock.pending).toBe(1);
    expect(settled).toBe(false);
    clock.advance(1);
    const error = await next;
    release();
    expect(isAgentError(error, 'AGENT_MODEL_INTERRUPTED')).toBe(true);
    expect((error as Error).message).toContain('no data for 200 ms');
  });

  it('a body that ends without [DONE] but after the finish is a whole response; one that ends before it is interrupted', async () => {
    server.handle(
      (_, res) => {
        startStream(res);
        res.end(sse(textChunk('ok')) + sse(finishChunk('stop')));
      },
      (_, res) => {
        startStream(res);
        res.end(sse(textChunk('cut')));
      },
    );
    expect((await collect(model().stream(request()))).at(-1)).toEqual({ type: 'finish', reason: 'stop' });
    const error = await collect(model().stream(request())).catch((e: unknown) => e);
    expect(isAgentError(error, 'AGENT_MODEL_INTERRUPTED')).toBe(true);
  });

  it('an HTTP error status is AGENT_MODEL_FAILED with the status and the body', async () => {
    server.handle((_, res) => {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":{"message":"bad key"}}');
    });
    const error = await collect(model().stream(request())).catch((e: unknown) => e);
    expect(isAgentError(error, 'AGENT_MODEL_FAILED')).toBe(true);
    expect((error as Error).message).toContain('HTTP 401');
    expect((error as Error).message).toContain('bad key');
  });

  it('an unset key variable is AGENT_MODEL_NOT_CONFIGURED and sends nothing', async () => {
    const keyless = new OpenAICompatibleModel({
      baseUrl: server.baseUrl,
      model: 'gpt-test',
      apiKeyEnv: 'MISSING_KEY',
      env: {},
    });
    const error = await collect(keyless.stream(request())).catch((e: unknown) => e);
    expect(isAgentError(error, 'AGENT_MODEL_NOT_CONFIGURED')).toBe(true);
    expect(server.requests).toHaveLength(0);
  });

  it('aborting the request signal mid-stream ends the stream with AGENT_CANCELLED, the idle timer never firing', async () => {
    let release!: () => void;
    const stalled = new Promise<void>((resolve) => (release = resolve));
    server.handle(async (_, res) => {
      startStream(res);
      res.write(sse(textChunk('a')));
      await stalled;
      res.end();
    });
    const clock = new ManualClock();
    const controller = new AbortController();
    const stream = model({ timers: clock }).stream(request(controller.signal))[Symbol.asyncIterator]();
    expect(await stream.next()).toEqual({ done: false, value: { type: 'text-delta', text: 'a' } });
    const next = stream.next().catch((e: unknown) => e);
    controller.abort();
    const error = await next;
    release();
    expect(isAgentError(error, 'AGENT_CANCELLED')).toBe(true);
    expect(clock.now()).toBe(0);
  });

  it('rejects a base URL that is not http(s)', () => {
    expect(() => new OpenAICompatibleModel({ baseUrl: 'ftp://x', model: 'm' })).toThrow(/http or https/);
  });
});

describe('OpenAICompatibleModel behind an agent', () => {
  let f: AgentFixture;
  afterEach(async () => {
    await f.close();
  });

  it('a turn records the route in request/header and the usage the server reported', async () => {
    server.handle((_, res) => {
      startStream(res);
      res.end(
        sse(textChunk('Hello from the server')) +
          sse(finishChunk('stop')) +
          sse(usageChunk(40, 5)) +
          'data: [DONE]\n\n',
      );
    });
    f = await agentFixture({ model: model() });
    const lease = await f.controller.create();
    const outcome = await lease.agent.prompt('hi');
    expect(outcome).toMatchObject({ reason: 'completed', text: 'Hello from the server' });
    const events = lease.agent.session.events;
    expect(events.find((e) => e.type === 'request/header')?.data).toEqual({
      provider: 'openai-compatible',
      model: 'gpt-test',
    });
    expect(events.find((e) => e.type === 'assistant/message')?.data).toEqual({
      content: 'Hello from the server',
      usage: { input: 40, output: 5 },
    });
    lease.release();
  });

  it('tool calls the server streams run as tools; the next request carries the call and its result', async () => {
    const toolCall = {
      choices: [
        {
          index: 0,
          delta: {
            tool_calls: [
              {
                index: 0,
                id: 'call_1',
                type: 'function',
                function: { name: 'spawn_agent', arguments: '{"task":"sub task"}' },
              },
            ],
          },
        },
      ],
    };
    server.handle(
      (_, res) => {
        startStream(res);
        res.end(sse(toolCall) + sse(finishChunk('tool_calls')) + 'data: [DONE]\n\n');
      },
      (_, res) => {
        startStream(res);
        res.end(sse(textChunk('child answer')) + sse(finishChunk('stop')) + 'data: [DONE]\n\n');
      },
      (_, res) => {
        startStream(res);
        res.end(sse(textChunk('all done')) + sse(finishChunk('stop')) + 'data: [DONE]\n\n');
      },
    );
    f = await agentFixture({ model: model() });
    const lease = await f.controller.create();
    const outcome = await lease.agent.prompt('delegate this');
    expect(outcome).toMatchObject({ reason: 'completed', text: 'all done' });
    expect(server.requests).toHaveLength(3);
    expect(server.requests[1]!.body.messages).toEqual([{ role: 'user', content: 'sub task' }]);
    const last = server.requests[2]!.body.messages as Record<string, unknown>[];
    expect(last.slice(0, 2)).toEqual([
      { role: 'user', content: 'delegate this' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'spawn_agent', arguments: '{"task":"sub task"}' },
          },
        ],
      },
    ]);
    expect(last[2]).toMatchObject({ role: 'tool', tool_call_id: 'call_1' });
    expect(last[2]!.content).toContain('child answer');
    lease.release();
  });

  it('a mid-stream disconnect ends the turn interrupted, keeps the partial answer and closes the log', async () => {
    const { opened: drafted, open: draft } = latch();
    server.handle(async (_, res) => {
      startStream(res);
      res.write(sse(textChunk('I was saying')));
      await drafted; // the disconnect comes once the turn has the text as its draft
      res.socket?.destroy();
    });
    f = await agentFixture({ model: model() });
    f.controller.onChange((change) => change.kind === 'draft' && draft());
    const lease = await f.controller.create();
    const outcome = await lease.agent.prompt('hi');
    expect(outcome.reason).toBe('interrupted');
    expect(outcome.error?.code).toBe('AGENT_MODEL_INTERRUPTED');
    const events = lease.agent.session.events;
    expect(events.findLast((e) => e.type === 'assistant/message')?.data).toEqual({ content: 'I was saying' });
    expect(events.at(-1)?.data).toMatchObject({ reason: 'interrupted' });
    expect(checkLogInvariants(events, { closedTurns: true })).toEqual([]);
    lease.release();
  });
});
