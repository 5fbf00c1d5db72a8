import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { costOf, type PriceTable, type Rates } from './pricing.js';
import { periodKey } from './periods.js';
import { USAGE_GROUPS, summarizeUsage, type HourEntry, type SessionUsage } from './summarize.js';

const HOUR = 3_600_000;
const START = Date.parse('2026-11-20T00:00:00Z');

/** A table that prices every model but `free-lunch`, at rates derived from the name. */
const RATES: Record<string, Rates> = {
  a: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  b: { input: 1, output: 4, cacheRead: 0.1, cacheWrite: 1.25 },
};
const table: PriceTable = {
  source: 'test',
  rates: (_provider, model, longContext) =>
    model in RATES
      ? longContext
        ? { ...RATES[model]!, input: RATES[model]!.input * 2 }
        : RATES[model]
      : undefined,
};

const entry: fc.Arbitrary<HourEntry> = fc.record(
  {
    hour: fc.integer({ min: 0, max: 24 * 20 }).map((h) => START + h * HOUR),
    provider: fc.constant('p'),
    model: fc.constantFrom('a', 'b', 'free-lunch', null),
    longContext: fc.boolean(),
    input: fc.oneof(fc.constant(0), fc.nat(100_000)),
    output: fc.oneof(fc.constant(0), fc.nat(10_000)),
    cacheCreation: fc.nat(50_000),
    cacheRead: fc.oneof(fc.constant(0), fc.nat(1_000_000)),
    reasoning: fc.nat(1_000),
    // A harness's own cost report (`session/cost`): on some entries, a tokenless one included.
    reportedUsd: fc.double({ min: 0, max: 100, noNaN: true }),
  },
  {
    requiredKeys: [
      'hour',
      'provider',
      'model',
      'longContext',
      'input',
      'output',
      'cacheCreation',
      'cacheRead',
      'reasoning',
    ],
  },
);
const sessionsArb: fc.Arbitrary<SessionUsage[]> = fc
  .array(
    fc.record({
      title: fc.option(fc.constantFrom('Fix the parser', 'Write docs'), { nil: null }),
      cwd: fc.option(fc.constantFrom('/work/a', '/work/b'), { nil: null }),
      harness: fc.constantFrom('claude-code', 'codex', 'strand'),
      byHour: fc.array(entry, { maxLength: 8 }),
    }),
    { maxLength: 6 },
  )
  .map((sessions) => sessions.map((s, i) => ({ id: `s${i}`, ...s })));

const kinds = (e: HourEntry) => e.input + e.output + e.cacheCreation + e.cacheRead;

describe('summarizeUsage', () => {
  it('every grouping splits the same totals: each hour entry lands in exactly one row', () => {
    fc.assert(
      fc.property(
        sessionsArb,
        fc.constantFrom(...USAGE_GROUPS),
        fc.constantFrom('UTC', 'Asia/Tokyo'),
        (sessions, by, timeZone) => {
          const summary = summarizeUsage(sessions, { by, timeZone }, table);
          const all = sessions.flatMap((s) => s.byHour);
          expect(summary.totals.totalTokens).toBe(all.reduce((n, e) => n + kinds(e), 0));
          expect(summary.totals.reasoningTokens).toBe(all.reduce((n, e) => n + e.reasoning, 0));
          expect(summary.rows.reduce((n, r) => n + r.totalTokens, 0)).toBe(summary.totals.totalTokens);
          expect(summary.rows.reduce((n, r) => n + r.cacheReadTokens, 0)).toBe(
            summary.totals.cacheReadTokens,
          );
          expect(summary.totals.sessions).toBe(sessions.filter((s) => s.byHour.length > 0).length);
        },
      ),
    );
  });

  it('a day row holds exactly the hours that start on that local day', () => {
    fc.assert(
      fc.property(sessionsArb, (sessions) => {
        const summary = summarizeUsage(sessions, { by: 'day', timeZone: 'America/New_York' }, table);
        const expected = new Map<string, number>();
        for (const e of sessions.flatMap((s) => s.byHour)) {
          const day = periodKey(e.hour, 'day', 'America/New_York');
          expected.set(day, (expected.get(day) ?? 0) + e.output);
        }
        expect(new Map(summary.rows.map((r) => [r.key, r.outputTokens]))).toEqual(expected);
        expect(summary.rows.map((r) => r.key)).toEqual([...expected.keys()].sort());
      }),
    );
  });

  it('cost is the table price of each hour-and-model piece; unpriced models are named, never priced at 0', () => {
    fc.assert(
      fc.property(sessionsArb, (sessions) => {
        const summary = summarizeUsage(sessions, { by: 'model', timeZone: 'UTC' }, table);
        for (const row of summary.rows) {
          // A piece with no tokens (a cost report alone) is neither priced nor unpriced.
          const pieces = sessions
            .flatMap((s) => s.byHour)
            .filter((e) => (e.model ?? '') === row.key && kinds(e) > 0);
          const priced = pieces.filter((e) => e.model !== null && e.model in RATES);
          const cost = priced.reduce(
            (usd, e) => usd + costOf(e, table.rates(e.provider, e.model!, e.longContext, e.hour)!),
            0,
          );
          if (priced.length === 0) expect(row.totalCost).toBeNull();
          else expect(row.totalCost).toBeCloseTo(cost, 6);
          expect(row.unpricedModels.length > 0).toBe(pieces.length > priced.length);
        }
      }),
    );
  });

  it("the harnesses' reported cost is summed beside Strand's, per row; null where none reported", () => {
    fc.assert(
      fc.property(sessionsArb, fc.constantFrom(...USAGE_GROUPS), (sessions, by) => {
        const summary = summarizeUsage(sessions, { by, timeZone: 'UTC' }, table);
        const reports = sessions.flatMap((s) => s.byHour).flatMap((e) => e.reportedUsd ?? []);
        if (reports.length === 0) expect(summary.totals.reportedCost).toBeNull();
        else
          expect(summary.totals.reportedCost).toBeCloseTo(
            reports.reduce((a, b) => a + b, 0),
            6,
          );
        const rowSum = summary.rows.reduce((usd, r) => usd + (r.reportedCost ?? 0), 0);
        expect(rowSum).toBeCloseTo(summary.totals.reportedCost ?? 0, 6);
      }),
    );
  });

  it('filters by harness, folder and time range', () => {
    const byHour = (hour: number, input: number): HourEntry => ({
      hour,
      provider: 'p',
      model: 'a',
      longContext: false,
      input,
      output: 0,
      cacheCreation: 0,
      cacheRead: 0,
      reasoning: 0,
    });
    const sessions: SessionUsage[] = [
      {
        id: 'x',
        title: 'X',
        cwd: '/a',
        harness: 'codex',
        byHour: [byHour(START, 1), byHour(START + 5 * HOUR, 2)],
      },
      { id: 'y', title: null, cwd: '/b', harness: 'claude-code', byHour: [byHour(START, 10)] },
    ];
    const inputOf = (options: Parameters<typeof summarizeUsage>[1]) =>
      summarizeUsage(sessions, options, table).totals.inputTokens;
    expect(inputOf({ by: 'day', timeZone: 'UTC' })).toBe(13);
    expect(inputOf({ by: 'day', timeZone: 'UTC', harness: 'codex' })).toBe(3);
    expect(inputOf({ by: 'day', timeZone: 'UTC', cwd: '/b' })).toBe(10);
    expect(inputOf({ by: 'day', timeZone: 'UTC', since: START + HOUR })).toBe(2);
    expect(inputOf({ by: 'day', timeZone: 'UTC', until: START + HOUR })).toBe(11);
    const bySession = summarizeUsage(sessions, { by: 'session', timeZone: 'UTC' }, table).rows;
    expect(bySession.map((r) => [r.key, r.label])).toEqual([
      ['y', 'y'],
      ['x', 'X'],
    ]);
  });
});
