import fc from 'fast-check';
import {
  SessionId,
  SessionSeq,
  type SessionEvent,
  type SessionEventInput,
  type SessionHeader,
} from '@strand/session';
import { SUBAGENT_DESCRIPTOR_EVENT } from '../descriptor.js';

/**
 * Random logs for the subagent units' property tests: descriptors of every kind (valid one-shot
 * and continuable, unknown versions, malformed payloads), turn boundaries, ordinary and unknown
 * events, and times that sometimes repeat or go backwards (clock skew). Core event data is always
 * valid, so the same inputs can be appended to a real `Session`.
 */

export const descriptorDataArbitrary: fc.Arbitrary<unknown> = fc.oneof(
  fc.record({
    version: fc.constant(2),
    mode: fc.constant('continuable'),
    label: fc.constantFrom('a', 'b', 'reviewer'),
  }),
  fc.record({ version: fc.constant(2), mode: fc.constant('one-shot') }),
  fc.record({ version: fc.constant(2), mode: fc.constant('one-shot'), label: fc.constantFrom('a', 'scout') }),
  fc.record({
    version: fc.constantFrom(1, 3, 99),
    mode: fc.constant('continuable'),
    label: fc.constant('a'),
  }),
  fc.constantFrom<unknown>(
    null,
    'descriptor',
    [2, 'continuable'],
    {},
    { version: 2, mode: 'continuable' },
    { version: 2, mode: 'continuable', label: '' },
    { version: 2, mode: 'one-shot', label: 7 },
    { version: 2, mode: 'one-shot', extra: true },
    { version: 2, mode: 'sometimes', label: 'a' },
    { version: '2', mode: 'one-shot' },
  ),
);

type Body = { readonly type: string; readonly data: unknown };
const body = (type: string, data: fc.Arbitrary<unknown>): fc.Arbitrary<Body> =>
  data.map((d) => ({ type, data: d }));

export const subagentEventBodyArbitrary: fc.Arbitrary<Body> = fc.oneof(
  { arbitrary: body(SUBAGENT_DESCRIPTOR_EVENT, descriptorDataArbitrary), weight: 2 },
  { arbitrary: body('turn/start', fc.constant({})), weight: 3 },
  {
    arbitrary: body(
      'turn/end',
      fc.record({ reason: fc.constantFrom('completed', 'aborted', 'error', 'interrupted') }),
    ),
    weight: 3,
  },
  body('step/start', fc.constant({})),
  body('step/end', fc.constant({})),
  body(
    'user/message',
    fc.record({ content: fc.string({ maxLength: 4 }), author: fc.constantFrom('human', 'agent') }),
  ),
  body('assistant/message', fc.record({ content: fc.string({ maxLength: 4 }) })),
  body('session/title', fc.record({ title: fc.constantFrom('t1', 't2') })),
  body('plugin/unknown', fc.oneof(fc.constant(null), fc.integer(), fc.constant({ x: [1] }))),
);

/** A time step: mostly forward, sometimes repeated, sometimes backwards. */
const stepArbitrary = fc.oneof(
  { arbitrary: fc.integer({ min: 1, max: 1_000 }), weight: 6 },
  fc.constant(0),
  fc.integer({ min: -500, max: -1 }),
);

export interface GeneratedLog {
  readonly inputs: readonly SessionEventInput[];
  readonly events: readonly SessionEvent[];
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/** Turns bodies and time steps into append inputs and the frozen envelopes a log would hold. */
export function toLog(
  pairs: readonly (readonly [Body, number])[],
  from = 0,
  startTime = 1_000_000,
): GeneratedLog {
  let time = startTime;
  const inputs: SessionEventInput[] = [];
  const events: SessionEvent[] = [];
  pairs.forEach(([b, step], i) => {
    time = Math.max(0, time + step);
    inputs.push({ type: b.type, data: b.data, time });
    events.push(
      deepFreeze({ type: b.type, seq: SessionSeq(from + i), time, data: b.data as SessionEvent['data'] }),
    );
  });
  return { inputs, events };
}

export const subagentLogArbitrary = (maxLength = 40): fc.Arbitrary<GeneratedLog> =>
  fc.array(fc.tuple(subagentEventBodyArbitrary, stepArbitrary), { maxLength }).map((pairs) => toLog(pairs));

export const unitHeaderArbitrary: fc.Arbitrary<SessionHeader> = fc.constantFrom<SessionHeader>(
  {
    version: 1,
    id: SessionId('child'),
    createdAt: 0,
    isSeeded: false,
    origin: 'subagent',
    parentSession: SessionId('p'),
  },
  { version: 1, id: SessionId('plain'), createdAt: 0, isSeeded: false },
);
