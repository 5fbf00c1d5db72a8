import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldView, header, log } from '../../testing/events.js';
import { describeUnitLaws } from '../../testing/unit-laws.js';
import { LONG_CONTEXT_TOKENS, USAGE_READS, usageUnit, type UsageTokens } from './usage.js';

const tokens = (partial: Partial<UsageTokens>): UsageTokens => ({
  input: 0,
  output: 0,
  cacheCreation: 0,
  cacheRead: 0,
  reasoning: 0,
  ...partial,
});
const route = (model: string) => ['request/header', { provider: 'anthropic', model }] as const;

describe('usage unit', () => {
  it('starts at zero and sums every kind of the usage records, old {input, output} ones included', () => {
    expect(foldView(usageUnit, [])).toEqual({
      own: tokens({}),
      inherited: tokens({}),
      byModel: [],
      byHour: [],
    });
    const events = log(
      ['assistant/message', { content: 'a', usage: { input: 10, output: 2 } }],
      ['assistant/message', { content: 'b' }],
      [
        'assistant/message',
        { content: 'c', usage: { input: 5, output: 7, cacheCreation: 100, cacheRead: 1000, reasoning: 3 } },
      ],
    );
    expect(foldView(usageUnit, events)?.own).toEqual(
      tokens({ input: 15, output: 9, cacheCreation: 100, cacheRead: 1000, reasoning: 3 }),
    );
  });

  it('counts each response under the model of the request/header before it', () => {
    const events = log(
      ['assistant/message', { content: 'before any header', usage: { input: 1, output: 1 } }],
      route('opus'),
      ['assistant/message', { content: 'a', usage: { input: 10, output: 2 } }],
      route('haiku'),
      ['assistant/message', { content: 'b', usage: { input: 3, output: 1, cacheRead: 50 } }],
      route('opus'),
      ['assistant/message', { content: 'c', usage: { input: 5, output: 1 } }],
    );
    expect(foldView(usageUnit, events)?.byModel).toEqual([
      { provider: null, model: null, longContext: false, ...tokens({ input: 1, output: 1 }) },
      { provider: 'anthropic', model: 'opus', longContext: false, ...tokens({ input: 15, output: 3 }) },
      {
        provider: 'anthropic',
        model: 'haiku',
        longContext: false,
        ...tokens({ input: 3, output: 1, cacheRead: 50 }),
      },
    ]);
  });

  it('keeps responses whose prompt passed the long-context boundary apart, so a tier can price them', () => {
    const events = log(
      route('sonnet'),
      [
        'assistant/message',
        { content: 'small', usage: { input: 10, output: 1, cacheRead: LONG_CONTEXT_TOKENS - 10 } },
      ],
      [
        'assistant/message',
        { content: 'large', usage: { input: 11, output: 2, cacheRead: LONG_CONTEXT_TOKENS - 10 } },
      ],
    );
    const view = foldView(usageUnit, events);
    expect(view?.byModel.map((m) => [m.longContext, m.input])).toEqual([
      [false, 10],
      [true, 11],
    ]);
    expect(view?.byHour.map((h) => h.longContext)).toEqual([false, true]);
  });

  it("keeps a seeded session's inherited prefix apart: own counts only seq ≥ inheritedEventCount", () => {
    const events = log(
      route('opus'),
      ['assistant/message', { content: 'parent', usage: { input: 100, output: 10 } }],
      ['assistant/message', { content: 'child', usage: { input: 7, output: 3 } }],
    );
    const view = foldView(usageUnit, events, header(), { inheritedEventCount: 2 });
    expect(view?.inherited).toEqual(tokens({ input: 100, output: 10 }));
    expect(view?.own).toEqual(tokens({ input: 7, output: 3 }));
    // The route named in the inherited prefix still names the child's responses.
    expect(view?.byModel).toEqual([
      { provider: 'anthropic', model: 'opus', longContext: false, ...tokens({ input: 7, output: 3 }) },
    ]);
  });

  it('sums per UTC hour and model, hours ascending, whatever order the responses came in', () => {
    const hour = 3_600_000;
    fc.assert(
      fc.property(
        fc.array(fc.record({ at: fc.nat(5 * hour), model: fc.constantFrom('a', 'b'), input: fc.nat(1000) }), {
          maxLength: 30,
        }),
        (responses) => {
          let state = usageUnit.init(header(), { inheritedEventCount: 0 });
          responses.forEach((r, seq) => {
            state = usageUnit.apply(state, {
              seq,
              time: r.at,
              type: 'request/header',
              data: { provider: 'p', model: r.model },
            } as never);
            state = usageUnit.apply(state, {
              seq,
              time: r.at,
              type: 'assistant/message',
              data: { content: '', usage: { input: r.input, output: 0 } },
            } as never);
          });
          const expected = new Map<string, number>();
          for (const r of responses) {
            if (r.input === 0) continue;
            const key = `${Math.floor(r.at / hour) * hour}|${r.model}`;
            expected.set(key, (expected.get(key) ?? 0) + r.input);
          }
          const byHour = usageUnit.view(state)!.byHour;
          expect(new Map(byHour.map((e) => [`${e.hour}|${e.model}`, e.input]))).toEqual(expected);
          expect(byHour.map((e) => e.hour)).toEqual([...byHour.map((e) => e.hour)].sort((x, y) => x - y));
        },
      ),
    );
  });

  it("keeps the harness's reported cost beside the tokens: each report's growth, per model and hour", () => {
    const hour = 3_600_000;
    const cost = (usd: number, byModel?: Record<string, number>) =>
      ['session/cost', byModel === undefined ? { usd } : { usd, byModel }] as const;
    const events = log(
      route('opus'),
      ['assistant/message', { content: 'a', usage: { input: 10, output: 2 } }],
      cost(0.5, { opus: 0.4, haiku: 0.1 }),
      cost(0.8, { opus: 0.6, haiku: 0.2 }),
    );
    const view = foldView(usageUnit, events);
    expect(view?.own).toEqual(tokens({ input: 10, output: 2 }));
    expect(view?.byModel).toEqual([
      {
        provider: 'anthropic',
        model: 'opus',
        longContext: false,
        ...tokens({ input: 10, output: 2 }),
        reportedUsd: 0.6,
      },
      { provider: null, model: 'haiku', longContext: false, ...tokens({}), reportedUsd: 0.2 },
    ]);
    // A report without a split counts under the route's model; a later hour gets only its growth.
    let state = usageUnit.init(header(), { inheritedEventCount: 1 });
    const at = (seq: number, time: number, type: string, data: unknown) =>
      (state = usageUnit.apply(state, { seq, time, type, data } as never));
    at(0, 0, 'session/cost', { usd: 1 }); // inherited: the parent counts it
    at(1, 0, 'request/header', { provider: 'p', model: 'm' });
    at(2, hour, 'session/cost', { usd: 1.25 });
    at(3, 2 * hour, 'session/cost', { usd: 2 });
    at(4, 3 * hour, 'session/cost', { usd: 0.5 }); // the harness restarted its count
    const byHour = usageUnit.view(state)!.byHour;
    expect(byHour.map((e) => [e.hour, e.model, e.reportedUsd])).toEqual([
      [hour, 'm', 0.25],
      [2 * hour, 'm', 0.75],
      [3 * hour, 'm', 0.5],
    ]);
  });

  it('agrees with itself however a log mixes routes, reports, hours and an inherited prefix (property)', () => {
    const hour = 3_600_000;
    const kinds = ['input', 'output', 'cacheCreation', 'cacheRead', 'reasoning'] as const;
    const step = fc.oneof(
      fc.record({ kind: fc.constant('route' as const), model: fc.constantFrom('a', 'b') }),
      fc.record({
        kind: fc.constant('response' as const),
        usage: fc.record(
          {
            input: fc.nat(300_000),
            output: fc.nat(1000),
            cacheCreation: fc.nat(1000),
            cacheRead: fc.nat(1000),
            reasoning: fc.nat(100),
          },
          { requiredKeys: ['input', 'output'] },
        ),
      }),
      fc.record({
        kind: fc.constant('cost' as const),
        usd: fc.nat(500).map((cents) => cents / 100),
        split: fc.option(
          fc.dictionary(
            fc.constantFrom('a', 'b', 'c'),
            fc.nat(300).map((c) => c / 100),
          ),
          {
            nil: undefined,
          },
        ),
      }),
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(step, fc.nat(4 * hour)), { maxLength: 40 }),
        fc.nat(5),
        (steps, inheritedEventCount) => {
          let state = usageUnit.init(header(), { inheritedEventCount });
          let inherited = tokens({});
          steps.forEach(([s, time], seq) => {
            const [type, data] =
              s.kind === 'route'
                ? ['request/header', { provider: 'p', model: s.model }]
                : s.kind === 'response'
                  ? ['assistant/message', { content: '', usage: s.usage }]
                  : [
                      'session/cost',
                      s.split === undefined ? { usd: s.usd } : { usd: s.usd, byModel: s.split },
                    ];
            if (s.kind === 'response' && seq < inheritedEventCount)
              for (const k of kinds) inherited = { ...inherited, [k]: inherited[k] + (s.usage[k] ?? 0) };
            state = usageUnit.apply(state, { seq, time, type, data } as never);
          });
          const view = usageUnit.view(state)!;
          expect(view.inherited).toEqual(inherited);
          // Each response and each report's growth counted once: by model and by hour alike.
          for (const k of kinds) {
            expect(view.byModel.reduce((sum, e) => sum + e[k], 0)).toBe(view.own[k]);
            expect(view.byHour.reduce((sum, e) => sum + e[k], 0)).toBe(view.own[k]);
          }
          const usd = (entries: readonly { reportedUsd?: number }[]) =>
            entries.reduce((sum, e) => sum + (e.reportedUsd ?? 0), 0);
          expect(usd(view.byHour)).toBeCloseTo(usd(view.byModel), 9);
          expect(view.byHour.map((e) => e.hour)).toEqual(
            [...view.byHour.map((e) => e.hour)].sort((x, y) => x - y),
          );
          // One entry per model and tier, and per hour, model and tier.
          const keys = view.byModel.map((e) => `${e.provider}|${e.model}|${e.longContext}`);
          expect(new Set(keys).size).toBe(keys.length);
          const hourKeys = view.byHour.map((e) => `${e.hour}|${e.provider}|${e.model}|${e.longContext}`);
          expect(new Set(hourKeys).size).toBe(hourKeys.length);
          // An entry has a reportedUsd only where a report grew it, and its fields in one order.
          for (const e of view.byModel)
            expect(Object.keys(e)).toEqual([
              'provider',
              'model',
              'longContext',
              ...kinds,
              ...('reportedUsd' in e ? ['reportedUsd'] : []),
            ]);
          for (const e of view.byHour) expect(Object.keys(e)[0]).toBe('hour');
        },
      ),
    );
  });

  it('becomes null for good after a usage record it cannot read', () => {
    for (const bad of [{ input: -1, output: 0 }, { input: 1, output: 1, cacheRead: 'many' }, { output: 3 }]) {
      const events = log(
        ['assistant/message', { content: 'a', usage: { input: 10, output: 2 } }],
        ['assistant/message', { content: 'b', usage: bad }],
        ['assistant/message', { content: 'c', usage: { input: 5, output: 1 } }],
      );
      expect(foldView(usageUnit, events)).toBeNull();
    }
  });
});

describeUnitLaws(usageUnit, USAGE_READS);
