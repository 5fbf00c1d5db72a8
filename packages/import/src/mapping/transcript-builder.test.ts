import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  Session,
  SessionId,
  checkLogInvariants,
  newSessionHeader,
  type SessionEventInput,
} from '@strand/session';
import { shortTitle } from './title.js';
import { TranscriptBuilder } from './transcript-builder.js';

type Op =
  | { op: 'prompt'; text: string }
  | { op: 'note' }
  | { op: 'text'; text: string }
  | { op: 'call'; id: number }
  | { op: 'result'; id: number }
  | { op: 'usage'; input: number; output: number }
  | { op: 'end'; reason: 'completed' | 'aborted' }
  | { op: 'error' }
  | { op: 'flush' };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('prompt' as const), text: fc.string({ maxLength: 12 }) }),
  fc.constant({ op: 'note' as const }),
  fc.record({ op: fc.constant('text' as const), text: fc.string({ maxLength: 12 }) }),
  fc.record({ op: fc.constant('call' as const), id: fc.integer({ min: 0, max: 5 }) }),
  fc.record({ op: fc.constant('result' as const), id: fc.integer({ min: 0, max: 5 }) }),
  fc.record({ op: fc.constant('usage' as const), input: fc.nat(1000), output: fc.nat(1000) }),
  fc.record({
    op: fc.constant('end' as const),
    reason: fc.constantFrom('completed' as const, 'aborted' as const),
  }),
  fc.constant({ op: 'error' as const }),
  fc.constant({ op: 'flush' as const }),
);

function build(ops: readonly Op[], finish = true): TranscriptBuilder {
  const b = new TranscriptBuilder();
  ops.forEach((op, i) => {
    const t = 1_000 + i;
    switch (op.op) {
      case 'prompt':
        b.prompt(op.text, 'human', t, { titleText: op.text });
        break;
      case 'note':
        b.note('context', t);
        break;
      case 'text':
        b.assistantRoute({ provider: 'p', model: 'm' }, t);
        b.assistantText(op.text, t);
        break;
      case 'call':
        b.assistantToolCall(`c${op.id}`, 'tool', '{}', t);
        break;
      case 'result':
        b.toolResult(`c${op.id}`, 'out', false, t);
        break;
      case 'usage':
        b.assistantUsage({ input: op.input, output: op.output }, 'add');
        break;
      case 'end':
        b.endTurn(op.reason, t);
        break;
      case 'error':
        b.turnError('boom');
        break;
      case 'flush':
        b.flushAssistant();
        break;
    }
  });
  if (finish) b.finish();
  return b;
}

async function validated(events: readonly SessionEventInput[]): Promise<Session> {
  const session = new Session({ header: newSessionHeader({ id: SessionId('t'), createdAt: 0 }) });
  await session.append(events);
  return session;
}

describe('TranscriptBuilder', () => {
  it('closes every turn and answers every call exactly once, whatever the record order (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { maxLength: 40 }), async (ops) => {
        const session = await validated(build(ops).events);
        expect(checkLogInvariants(session.events, { closedTurns: true })).toEqual([]);
        const calls = session.events
          .filter((e) => e.type === 'tool/call')
          .map((e) => (e.data as { callId: string }).callId);
        const results = session.events
          .filter((e) => e.type === 'tool/result')
          .map((e) => (e.data as { callId: string }).callId);
        for (const call of calls) expect(results.filter((r) => r === call).length).toBeGreaterThanOrEqual(1);
        expect(new Set(results).size).toBe(results.length);
      }),
      { numRuns: 300 },
    );
  });

  it('only ever appends: the events before any record are a prefix of the events after it (property)', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 40 }), fc.nat(40), (ops, cut) => {
        const prefix = build(ops.slice(0, cut), false).events;
        expect(build(ops, false).events.slice(0, prefix.length)).toEqual(prefix);
      }),
    );
  });

  it('never loses usage: the messages carry the sum of all usage fed in, when a message follows it', () => {
    const b = new TranscriptBuilder();
    b.prompt('go', 'human', 1);
    b.assistantUsage({ input: 10, output: 1 }, 'add'); // logged before the response it belongs to
    b.assistantText('a', 2);
    b.assistantUsage({ input: 5, output: 2 }, 'add');
    b.assistantToolCall('c1', 'read', '{}', 2);
    b.toolResult('c1', 'x', false, 3);
    b.assistantText('done', 4);
    b.assistantUsage({ input: 7, output: 3 }, 'replace');
    b.finish();
    const usages = b.events
      .filter((e) => e.type === 'assistant/message')
      .map((e) => (e.data as { usage?: unknown }).usage);
    expect(usages).toEqual([
      { input: 15, output: 3 },
      { input: 7, output: 3 },
    ]);
  });

  it('writes a request header only when the route changes', () => {
    const b = new TranscriptBuilder();
    b.prompt('go', 'human', 1);
    for (const [t, model] of [
      [2, 'a'],
      [3, 'a'],
      [4, 'b'],
    ] as const) {
      b.assistantRoute({ provider: 'p', model }, t);
      b.assistantText(`from ${model}`, t);
      b.flushAssistant();
    }
    b.finish();
    expect(b.events.filter((e) => e.type === 'request/header').map((e) => e.data)).toEqual([
      { provider: 'p', model: 'a' },
      { provider: 'p', model: 'b' },
    ]);
  });

  it('ends a transcript that stops after a final answer as completed, and one that stops mid-turn as interrupted', () => {
    const answered = new TranscriptBuilder();
    answered.prompt('q', 'human', 1);
    answered.assistantText('a', 2);
    answered.finish();
    expect(answered.events.at(-1)).toEqual({ type: 'turn/end', time: 2, data: { reason: 'completed' } });

    const waiting = new TranscriptBuilder();
    waiting.prompt('q', 'human', 1);
    waiting.assistantToolCall('c', 'bash', '{}', 2);
    waiting.toolResult('c', 'ok', false, 3);
    waiting.finish();
    expect(waiting.events.at(-1)).toEqual({ type: 'turn/end', time: 3, data: { reason: 'interrupted' } });

    const recorded = new TranscriptBuilder();
    recorded.prompt('q', 'human', 1);
    recorded.assistantText('a', 2);
    recorded.finish({ turnEndsRecorded: true });
    expect(recorded.events.at(-1)?.data).toEqual({ reason: 'interrupted' });
  });

  it('an implicit end after a recorded error is an error end carrying the message', () => {
    const b = new TranscriptBuilder();
    b.prompt('q', 'human', 1);
    b.assistantText('API Error: overloaded', 2);
    b.turnError('API Error: overloaded');
    b.prompt('again', 'human', 5);
    b.finish();
    expect(b.events.filter((e) => e.type === 'turn/end').map((e) => e.data)).toEqual([
      { reason: 'error', error: 'API Error: overloaded' },
      { reason: 'interrupted' },
    ]);
  });

  it('a title stated before any timestamp takes the time of the next event and suppresses the prompt title', () => {
    const b = new TranscriptBuilder();
    b.explicitTitle('A summary', undefined);
    b.prompt('the prompt', 'human', 42, { titleText: 'the prompt' });
    b.finish();
    expect(b.events.slice(0, 2)).toEqual([
      { type: 'session/title', time: 42, data: { title: 'A summary' } },
      { type: 'turn/start', time: 42, data: {} },
    ]);
  });
});

describe('shortTitle', () => {
  it('is one line of at most 80 characters, cut at a word', () => {
    expect(shortTitle('  fix\n\tthe   build  ')).toBe('fix the build');
    const long = shortTitle('word '.repeat(40))!;
    expect(long.length).toBeLessThanOrEqual(80);
    expect(long.endsWith('word…')).toBe(true);
    expect(shortTitle(' \n ')).toBeUndefined();
  });
});
