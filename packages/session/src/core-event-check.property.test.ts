import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkCoreEventData } from './core-event-check.js';
import { CORE_EVENT_TYPES, schemaVerdict, type CoreEventType } from './core-events.js';

/**
 * The append path's hand-written checks answer exactly as the schemas do: on valid data, on valid
 * data with one to three changes anywhere inside (a key dropped, added or given another value),
 * and on arbitrary JSON. A schema change the fast path lacks (or the reverse) fails here.
 */

const text = fc.string({ maxLength: 6 });
const count = fc.oneof(fc.nat(), fc.constant(Number.MAX_SAFE_INTEGER));
const block = fc.oneof(
  fc.record({ type: fc.constant('text'), text }),
  fc.record({ type: fc.constant('image'), ref: text }),
);
const content = fc.oneof(text, fc.array(block, { maxLength: 3 }));
const optional = (
  model: Record<string, fc.Arbitrary<unknown>>,
  required: readonly string[],
): fc.Arbitrary<Record<string, unknown>> => fc.record(model, { requiredKeys: [...required] });
const route = optional({ provider: text, model: text, reasoningEffort: text }, ['provider', 'model']);

const VALID: Readonly<Record<CoreEventType, fc.Arbitrary<Record<string, unknown>>>> = {
  'turn/start': fc.constant({}),
  'step/start': fc.constant({}),
  'step/end': fc.constant({}),
  'turn/end': optional(
    { reason: fc.constantFrom('completed', 'aborted', 'error', 'interrupted'), error: text },
    ['reason'],
  ),
  'user/message': fc.record({ content, author: fc.constantFrom('human', 'agent', 'system') }),
  'assistant/message': optional(
    {
      content,
      toolCalls: fc.array(fc.record({ id: text, name: text, arguments: text }), { maxLength: 2 }),
      usage: optional(
        { input: count, output: count, cacheCreation: count, cacheRead: count, reasoning: count },
        ['input', 'output'],
      ),
    },
    ['content'],
  ),
  'tool/call': fc.record({ callId: text, name: text, arguments: text }),
  'tool/result': optional({ callId: text, content, isError: fc.boolean(), code: text }, [
    'callId',
    'content',
  ]),
  'session/title': fc.record({ title: text }),
  'session/cost': optional(
    {
      usd: fc.double({ min: 0, max: 1e6, noNaN: true }),
      byModel: fc.dictionary(text, fc.double({ min: 0, max: 1e6, noNaN: true }), { maxKeys: 3 }),
    },
    ['usd'],
  ),
  'session/command': optional({ name: text, args: text }, ['name']),
  'session/command-output': fc.record({ text, stream: fc.constantFrom('stdout', 'stderr') }),
  'session/continued-from': fc.record({
    session: text,
    cut: fc.nat(),
    harness: text,
  }),
  'model/selection': route,
  'request/header': route,
  'agent-preset/select': fc.record({ preset: fc.option(text, { nil: null }) }),
};

/** Every object and array inside `value` (itself included), as parents one can change. */
function containers(value: unknown, out: (Record<string, unknown> | unknown[])[] = []): typeof out {
  if (typeof value !== 'object' || value === null) return out;
  out.push(value as Record<string, unknown> | unknown[]);
  for (const child of Object.values(value)) containers(child, out);
  return out;
}

interface Change {
  readonly at: number;
  readonly kind: 'drop' | 'set' | 'add';
  readonly key: string;
  readonly value: unknown;
}
const change: fc.Arbitrary<Change> = fc.record({
  at: fc.nat(),
  kind: fc.constantFrom('drop', 'set', 'add'),
  key: fc.constantFrom(
    'content',
    'type',
    'text',
    'ref',
    'input',
    'reason',
    'extra',
    'id',
    '0',
    'usd',
    'byModel',
    'name',
    'args',
    'stream',
  ),
  value: fc.oneof(
    fc.jsonValue({ maxDepth: 2 }),
    fc.constant(-1),
    fc.constant(1.5),
    fc.constant(2 ** 60),
    fc.constant(Number.NaN),
    fc.constant(Number.POSITIVE_INFINITY),
  ),
});

function apply(value: Record<string, unknown>, changes: readonly Change[]): unknown {
  const copy = structuredClone(value);
  for (const c of changes) {
    const parents = containers(copy);
    const parent = parents[c.at % parents.length]!;
    const keys = Object.keys(parent);
    const key = c.kind === 'add' || keys.length === 0 ? c.key : keys[c.at % keys.length]!;
    if (c.kind === 'drop') {
      if (Array.isArray(parent)) parent.splice(Number(key) || 0, 1);
      else delete parent[key];
    } else if (Array.isArray(parent)) parent[Number(key) || 0] = c.value;
    else parent[key] = c.value;
  }
  return copy;
}

const agree = (type: CoreEventType, data: unknown): void => {
  const fast = checkCoreEventData(type, data);
  const exact = schemaVerdict(type, data);
  expect({ type, data, valid: fast === undefined }).toEqual({ type, data, valid: exact === undefined });
};

describe('the append fast path and the core schemas', () => {
  const typeArb = fc.constantFrom(...CORE_EVENT_TYPES);
  it('accept every valid event data', () => {
    fc.assert(
      fc.property(
        typeArb.chain((type) => VALID[type].map((data) => ({ type, data }))),
        ({ type, data }) => {
          expect(checkCoreEventData(type, data)).toBeUndefined();
          expect(schemaVerdict(type, data)).toBeUndefined();
        },
      ),
      { numRuns: 500 },
    );
  });

  it('agree on valid data changed anywhere inside (dropped, added or other values)', () => {
    let refused = 0;
    fc.assert(
      fc.property(
        typeArb.chain((type) =>
          fc.tuple(fc.constant(type), VALID[type], fc.array(change, { minLength: 1, maxLength: 3 })),
        ),
        ([type, data, changes]) => {
          const changed = apply(data, changes);
          if (checkCoreEventData(type, changed) !== undefined) refused++;
          agree(type, changed);
        },
      ),
      { numRuns: 3_000 },
    );
    // The changes do reach refusals (the property is not only ever checking valid data).
    expect(refused).toBeGreaterThan(500);
  });

  it('agree on arbitrary JSON as data', () => {
    fc.assert(
      fc.property(typeArb, fc.jsonValue({ maxDepth: 3 }), (type, data) => agree(type, data)),
      { numRuns: 1_000 },
    );
  });

  it('say nothing of a type the vocabulary does not name', () => {
    expect(checkCoreEventData('subagent/descriptor', 42)).toBeUndefined();
    expect(schemaVerdict('subagent/descriptor', 42)).toBeUndefined();
  });
});
