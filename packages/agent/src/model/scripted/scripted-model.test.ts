import { describe, expect, it } from 'vitest';
import { isAgentError } from '../../errors.js';
import type { ModelMessage, ModelRequest, ModelStreamPart } from '../model.js';
import { ruleStep } from './rules.js';
import { ScriptedModel } from './scripted-model.js';

const ask = (...messages: ModelMessage[]): ModelRequest => ({
  messages,
  tools: [],
  signal: new AbortController().signal,
});
const user = (content: string): ModelMessage => ({ role: 'user', content });

async function collect(model: ScriptedModel, request: ModelRequest): Promise<ModelStreamPart[]> {
  const parts: ModelStreamPart[] = [];
  for await (const part of model.stream(request)) parts.push(part);
  return parts;
}

describe('the scripted rule set', () => {
  it('echoes a plain prompt with its word count', () => {
    expect(ruleStep(ask(user('  hello\n  world  ')))).toEqual({ text: 'You said: "hello world" (2 words).' });
  });

  it('turns `call <tool> {json}` lines into tool calls, in order', () => {
    expect(ruleStep(ask(user('first\ncall read_file {"path":"a"}\ncall list_agents')))).toEqual({
      text: '',
      toolCalls: [
        { name: 'read_file', arguments: '{"path":"a"}' },
        { name: 'list_agents', arguments: '{}' },
      ],
    });
  });

  it('understands the friendly forms of spawn_agent, send_message and list_agents', () => {
    expect(ruleStep(ask(user('spawn a continuable agent "scout" forked: map the repo'))).toolCalls).toEqual([
      {
        name: 'spawn_agent',
        arguments: { task: 'map the repo', mode: 'continuable', label: 'scout', fork: true },
      },
    ]);
    expect(ruleStep(ask(user('spawn one-shot agent: quick look'))).toolCalls).toEqual([
      { name: 'spawn_agent', arguments: { task: 'quick look', mode: 'one-shot' } },
    ]);
    expect(ruleStep(ask(user('tell child-7: keep going'))).toolCalls).toEqual([
      { name: 'send_message', arguments: { agent_id: 'child-7', message: 'keep going' } },
    ]);
    expect(ruleStep(ask(user('list all agents'))).toolCalls).toEqual([
      { name: 'list_agents', arguments: { scope: 'descendants' } },
    ]);
  });

  it('summarizes the results of the last step, naming each tool', () => {
    const step = ruleStep(
      ask(
        user('call a {}\ncall b {}'),
        {
          role: 'assistant',
          content: '',
          toolCalls: [
            { id: '1', name: 'a', arguments: '{}' },
            { id: '2', name: 'b', arguments: '{}' },
          ],
        },
        { role: 'tool', callId: '1', content: '\nfirst line\nsecond' },
        { role: 'tool', callId: '2', content: 'error X: nope' },
      ),
    );
    expect(step).toEqual({ text: 'Tool results:\n- a: first line\n- b: error X: nope' });
  });
});

describe('ScriptedModel', () => {
  it('answers the same request the same way: deltas, tool calls with conversation-unique ids, usage, finish', async () => {
    const request = ask(user('call x {"k":1}'));
    const first = await collect(new ScriptedModel(), request);
    expect(first).toEqual(await collect(new ScriptedModel(), request));
    expect(first).toEqual([
      { type: 'tool-call', call: { id: 'call-1-0', name: 'x', arguments: '{"k":1}' } },
      { type: 'usage', input: 4, output: 2 },
      { type: 'finish', reason: 'tool-calls' },
    ]);
  });

  it('plays its script first, then falls back to the rules', async () => {
    const model = new ScriptedModel({ script: [{ text: 'scripted', usage: { input: 1, output: 1 } }] });
    expect(await collect(model, ask(user('a')))).toEqual([
      { type: 'text-delta', text: 'scripted' },
      { type: 'usage', input: 1, output: 1 },
      { type: 'finish', reason: 'stop' },
    ]);
    const echoed = await collect(model, ask(user('b')));
    expect(echoed[0]).toEqual({ type: 'text-delta', text: 'You ' });
    expect(model.requests).toBe(2);
  });

  it('fails with the scripted code after streaming the scripted text', async () => {
    const model = new ScriptedModel({
      script: [{ text: 'so far', fail: { code: 'AGENT_MODEL_INTERRUPTED', message: 'gone' } }],
    });
    const parts: ModelStreamPart[] = [];
    const error = await (async () => {
      for await (const part of model.stream(ask(user('x')))) parts.push(part);
    })().catch((e: unknown) => e);
    expect(isAgentError(error, 'AGENT_MODEL_INTERRUPTED')).toBe(true);
    expect(parts).toEqual([
      { type: 'text-delta', text: 'so ' },
      { type: 'text-delta', text: 'far' },
    ]);
  });

  it('streams word by word with a pause before each chunk when asked, and not at all by default', async () => {
    const pauses: number[] = [];
    const slow = new ScriptedModel({
      script: [{ text: 'one two three' }],
      chunkDelayMs: 40,
      pause: (ms) => {
        pauses.push(ms);
        return Promise.resolve();
      },
    });
    const parts = await collect(slow, ask(user('x')));
    expect(parts.filter((p) => p.type === 'text-delta').map((p) => p.text)).toEqual([
      'one ',
      'two ',
      'three',
    ]);
    expect(pauses).toEqual([40, 40, 40]);
    const fast = new ScriptedModel({
      script: [{ text: 'one two' }],
      pause: () => Promise.reject(new Error('no pause expected')),
    });
    expect(await collect(fast, ask(user('x')))).toHaveLength(4);
  });
});
