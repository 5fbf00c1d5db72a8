import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FileReports } from '../mapping/file-reports.js';
import { TranscriptBuilder } from '../mapping/transcript-builder.js';
import type { JsonRecord } from '../source/json-record.js';
import { CursorBubbles } from './bubbles.js';

const T0 = Date.parse('2026-12-04T10:00:00Z');

const timeArb = fc.option(
  fc.integer({ min: 0, max: 3600 }).map((s) => new Date(T0 + s * 1000).toISOString()),
  { nil: undefined },
);

/** Bubbles of every shape the mapping reads: prompts, replies, tool calls in every state, reasoning, an unknown type. */
const bubbleArb: fc.Arbitrary<JsonRecord> = fc.oneof(
  fc.record({
    type: fc.constant(1),
    text: fc.constantFrom('', 'Hello', 'Run the tests'),
    modelInfo: fc.option(fc.record({ modelName: fc.constantFrom('gpt-5', 'claude-4-sonnet') }), {
      nil: undefined,
    }),
    createdAt: timeArb,
  }),
  fc.record({
    type: fc.constant(2),
    text: fc.constantFrom('', 'Done.', 'Working'),
    tokenCount: fc.option(
      fc.record({ inputTokens: fc.nat({ max: 50 }), outputTokens: fc.nat({ max: 50 }) }),
      { nil: undefined },
    ),
    createdAt: timeArb,
  }),
  fc.record({
    type: fc.constant(2),
    text: fc.constantFrom('', 'Calling'),
    toolFormerData: fc.record({
      name: fc.constantFrom('read_file', 'run_terminal_cmd', ''),
      // A small id pool: a reused id must not give a call a second result.
      toolCallId: fc.option(fc.constantFrom('t1', 't2', 't3'), { nil: undefined }),
      status: fc.constantFrom('completed', 'error', 'loading', 'cancelled'),
      rawArgs: fc.constant('{"a":1}'),
      result: fc.option(fc.constant('"ok"'), { nil: undefined }),
      userDecision: fc.option(fc.constantFrom('accepted', 'rejected'), { nil: undefined }),
    }),
    createdAt: timeArb,
  }),
  fc.record({ type: fc.constant(2), text: fc.constant(''), thinking: fc.constant({ text: 'hmm' }) }),
  fc.record({ type: fc.constant(30), text: fc.constant('?') }),
);

function map(bubbles: readonly JsonRecord[], title: string | undefined) {
  const builder = new TranscriptBuilder();
  const mapper = new CursorBubbles(builder, new FileReports('state.vscdb'), T0, title);
  bubbles.forEach((b, i) => mapper.bubble(b, `b${i}`));
  builder.finish();
  return builder.events;
}

describe('CursorBubbles', () => {
  it('mapping any prefix of a chat yields a prefix of the events of the whole chat', () => {
    fc.assert(
      fc.property(
        fc.array(bubbleArb, { maxLength: 14 }),
        fc.option(fc.constant('A chat'), { nil: undefined }),
        fc.nat(),
        (bubbles, title, at) => {
          const whole = map(bubbles, title);
          const cut = map(bubbles.slice(0, at % (bubbles.length + 1)), title);
          expect(cut).toEqual(whole.slice(0, cut.length));
        },
      ),
    );
  });

  it('every tool call gets at most one result, and none without its call', () => {
    fc.assert(
      fc.property(fc.array(bubbleArb, { maxLength: 14 }), (bubbles) => {
        const events = map(bubbles, undefined);
        const called = new Set<unknown>();
        const answered = new Set<unknown>();
        for (const e of events) {
          const callId = (e.data as { callId?: unknown }).callId;
          if (e.type === 'tool/call') called.add(callId);
          if (e.type !== 'tool/result') continue;
          expect(called.has(callId)).toBe(true);
          expect(answered.has(callId)).toBe(false);
          answered.add(callId);
        }
      }),
    );
  });
});
