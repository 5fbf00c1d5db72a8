import fc from 'fast-check';
import {
  SessionId,
  checkCoreEventData,
  type SessionEvent,
  type SessionEventInput,
  type SessionHeader,
  type SessionSeq,
} from '@strand/session';

/**
 * Random session logs for property tests: the core vocabulary with valid and corrupt data, domain
 * and unknown event types, repeated times — everything a unit must fold without throwing.
 */

const text = fc.string({ maxLength: 6 });
const junk = fc.oneof(
  fc.constant(null),
  fc.integer(),
  text,
  fc.constant([1, 'x']),
  fc.constant({}),
  fc.record({
    title: fc.integer(),
    provider: fc.boolean(),
    preset: fc.constant(7),
    author: fc.constant('robot'),
  }),
);
const valid = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<unknown> =>
  fc.oneof({ arbitrary: arb, weight: 5 }, { arbitrary: junk, weight: 1 });
const route = fc.record(
  {
    provider: fc.constantFrom('openai', 'local'),
    model: fc.constantFrom('m1', 'm2'),
    reasoningEffort: fc.constantFrom('low', 'high'),
  },
  { requiredKeys: ['provider', 'model'] },
);
const usage = fc.oneof(
  { arbitrary: fc.record({ input: fc.nat(5_000), output: fc.nat(500) }), weight: 4 },
  {
    arbitrary: fc.record(
      {
        input: fc.nat(5_000),
        output: fc.nat(500),
        cacheCreation: fc.nat(5_000),
        cacheRead: fc.nat(50_000),
        reasoning: fc.nat(500),
      },
      { requiredKeys: ['input', 'output'] },
    ),
    weight: 4,
  },
  { arbitrary: fc.record({ input: fc.constant(-1), output: fc.constant(2.5) }), weight: 1 },
);

type Body = { type: string; data: unknown };
const body = (type: string, data: fc.Arbitrary<unknown>): fc.Arbitrary<Body> =>
  data.map((d) => ({ type, data: d }));

export const eventBodyArbitrary: fc.Arbitrary<Body> = fc.oneof(
  body('turn/start', fc.constant({})),
  body(
    'turn/end',
    valid(fc.record({ reason: fc.constantFrom('completed', 'aborted', 'error', 'interrupted') })),
  ),
  body('step/start', fc.constant({})),
  body('step/end', fc.constant({})),
  body(
    'user/message',
    valid(fc.record({ content: text, author: fc.constantFrom('human', 'agent', 'system') })),
  ),
  body('assistant/message', valid(fc.record({ content: text, usage }, { requiredKeys: ['content'] }))),
  body('tool/call', valid(fc.record({ callId: text, name: text, arguments: text }))),
  body('tool/result', valid(fc.record({ callId: text, content: text }))),
  body('session/title', valid(fc.record({ title: fc.constantFrom('a', 'b', '') }))),
  body('model/selection', valid(route)),
  body('request/header', valid(route)),
  body(
    'session/continued-from',
    valid(
      fc.record({ session: fc.constantFrom('s-a', 's-b'), cut: fc.nat(9), harness: fc.constant('codex') }),
    ),
  ),
  body('agent-preset/select', valid(fc.record({ preset: fc.constantFrom('coder', 'reviewer', null) }))),
  body('subagent/descriptor', fc.record({ version: fc.constant(2), mode: fc.constant('one-shot') })),
  body('plugin/unknown', junk),
);

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/** Builds a frozen, contiguous log from bodies and time steps (steps of 0 repeat a time). */
export function toEvents(bodies: readonly Body[], steps: readonly number[] = [], from = 0): SessionEvent[] {
  let time = 1_000;
  return bodies.map((b, i) => {
    time += steps[i] ?? 1;
    return deepFreeze({
      type: b.type,
      seq: (from + i) as SessionSeq,
      time,
      data: b.data as SessionEvent['data'],
    });
  });
}

export const logArbitrary = (maxLength = 40): fc.Arbitrary<SessionEvent[]> =>
  fc.array(fc.tuple(eventBodyArbitrary, fc.nat(2)), { maxLength }).map((pairs) =>
    toEvents(
      pairs.map(([b]) => b),
      pairs.map(([, step]) => step),
    ),
  );

/**
 * Logs a live `Session` accepts: the same vocabulary without the corrupt payloads (a session
 * refuses core events whose data breaks their schema), with the append inputs that produce them,
 * so the live-vs-cold law can append them for real.
 */
export const appendableLogArbitrary = (
  maxLength = 40,
): fc.Arbitrary<{ events: SessionEvent[]; inputs: SessionEventInput[] }> =>
  fc
    .array(
      fc.tuple(
        eventBodyArbitrary.filter(
          (b) => checkCoreEventData(b.type, b.data as SessionEvent['data']) === undefined,
        ),
        fc.nat(2),
      ),
      { maxLength },
    )
    .map((pairs) => {
      const events = toEvents(
        pairs.map(([b]) => b),
        pairs.map(([, step]) => step),
      );
      return { events, inputs: events.map((e) => ({ type: e.type, data: e.data, time: e.time })) };
    });

export const headerArbitrary: fc.Arbitrary<SessionHeader> = fc.constantFrom<SessionHeader>(
  { version: 1, id: SessionId('p'), createdAt: 0, isSeeded: false },
  { version: 1, id: SessionId('p'), createdAt: 0, isSeeded: false, agentPreset: null },
  { version: 1, id: SessionId('p'), createdAt: 0, isSeeded: false, agentPreset: 'coder' },
);
