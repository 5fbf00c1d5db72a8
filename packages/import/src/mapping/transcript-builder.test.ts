import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  Session,
  SessionId,
  checkLogInvariants,
  newSessionHeader,
  repairEvents,
  type SessionEventInput,
} from '@strand/session';
import { shortTitle } from './title.js';
import { usage } from './usage.js';
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

/** Each op stands for one source record: like every mapper, it flushes what a record buffered. */
function build(ops: readonly Op[]): TranscriptBuilder {
  const b = new TranscriptBuilder();
  ops.forEach((op, i) => {
    b.flushAssistant();
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
        b.assistantUsage(usage({ input: op.input, output: op.output }), 'add');
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
  b.finish();
  return b;
}

async function validated(events: readonly SessionEventInput[]): Promise<Session> {
  const session = new Session({ header: newSessionHeader({ id: SessionId('t'), createdAt: 0 }) });
  await session.append(events);
  return session;
}

describe('TranscriptBuilder', () => {
  it('closes every turn but the last, and the crash-repair closers complete the last; every call is answered at most once (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { maxLength: 40 }), async (ops) => {
        const session = await validated(build(ops).events);
        const completed = [...session.events, ...repairEvents(session.events)];
        expect(checkLogInvariants(completed, { closedTurns: true })).toEqual([]);
        const starts = session.events.filter((e) => e.type === 'turn/start').length;
        const ends = session.events.filter((e) => e.type === 'turn/end').length;
        expect(starts - ends).toBeGreaterThanOrEqual(0);
        expect(starts - ends).toBeLessThanOrEqual(1);
        const idsOf = (events: readonly { type: string; data: unknown }[], type: string): string[] =>
          events.filter((e) => e.type === type).map((e) => (e.data as { callId: string }).callId);
        // The builder answers a call at most once; with the open turn's closers, every call is answered.
        const own = idsOf(session.events, 'tool/result');
        expect(new Set(own).size).toBe(own.length);
        const results = idsOf(completed, 'tool/result');
        for (const call of idsOf(completed, 'tool/call')) expect(results).toContain(call);
      }),
      { numRuns: 300 },
    );
  });

  it('maps any prefix of the records to a prefix of the events of all of them, finished or not (property)', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 40 }), fc.nat(40), (ops, cut) => {
        const prefix = build(ops.slice(0, cut)).events;
        expect(build(ops).events.slice(0, prefix.length)).toEqual(prefix);
      }),
    );
  });

  it('never loses usage: the messages carry the sum of all usage fed in, when a message follows it', () => {
    const b = new TranscriptBuilder();
    b.prompt('go', 'human', 1);
    b.assistantUsage(usage({ input: 10, output: 1 }), 'add'); // logged before the response it belongs to
    b.assistantText('a', 2);
    b.assistantUsage(usage({ input: 5, output: 2 }), 'add');
    b.assistantToolCall('c1', 'read', '{}', 2);
    b.toolResult('c1', 'x', false, 3);
    b.assistantText('done', 4);
    b.assistantUsage(usage({ input: 7, output: 3 }), 'replace');
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

  it('writes no closers at the end of the input: a turn left open stays open, its call unanswered', () => {
    const answered = new TranscriptBuilder();
    answered.prompt('q', 'human', 1);
    answered.assistantText('a', 2);
    answered.finish();
    expect(answered.events.at(-1)).toMatchObject({ type: 'assistant/message', time: 2 });
    expect(answered.turnOpen).toBe(true);

    const waiting = new TranscriptBuilder();
    waiting.prompt('q', 'human', 1);
    waiting.assistantToolCall('c', 'bash', '{}', 2);
    waiting.finish();
    expect(waiting.events.map((e) => e.type)).toEqual([
      'turn/start',
      'user/message',
      'assistant/message',
      'tool/call',
    ]);
    // The next prompt shows the turn's end: only then is the unanswered call closed.
    waiting.prompt('next', 'human', 5);
    expect(waiting.events.slice(4).map((e) => [e.type, e.data])).toEqual([
      ['tool/result', { callId: 'c', content: '', isError: true, code: 'TOOL_OUTCOME_UNKNOWN' }],
      ['turn/end', { reason: 'completed' }],
      ['turn/start', {}],
      ['user/message', { content: 'next', author: 'human' }],
    ]);
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

  it('a stated title writes a rename only when it changes the title, whatever the order of restatements', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('alpha', 'beta', ' alpha ', 'gamma'), { maxLength: 12 }),
        fc.boolean(),
        (titles, promptTitled) => {
          const b = new TranscriptBuilder();
          if (promptTitled) b.prompt('alpha', 'human', 1, { titleText: 'alpha' });
          titles.forEach((t, i) => b.explicitTitle(t, 10 + i));
          b.finish();
          const written = b.events
            .filter((e) => e.type === 'session/title')
            .map((e) => (e.data as { title: string }).title);
          // The expected renames: each title that differs from the one before it.
          const expected: string[] = [];
          for (const t of [...(promptTitled ? ['alpha'] : []), ...titles.map((t) => t.trim())])
            if (expected.at(-1) !== t) expected.push(t);
          expect(written).toEqual(expected);
        },
      ),
    );
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
