import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { UsageRow } from '@strand/protocol';
import {
  costChart,
  daysBetween,
  daysToSplit,
  OTHER_MODELS,
  tokenChart,
  unpricedModels,
} from './usage-series.js';

function row(key: string, figures: Partial<UsageRow> = {}): UsageRow {
  return {
    key,
    label: key,
    sessions: 1,
    models: [],
    inputTokens: 0,
    outputTokens: 0,
    cacheCreationTokens: 0,
    cacheReadTokens: 0,
    reasoningTokens: 0,
    totalTokens: 0,
    totalCost: null,
    unpricedModels: [],
    ...figures,
  };
}

const count = fc.nat({ max: 10_000_000 });
/** Day rows as the host sends them: distinct days, ascending, from a few months around a leap day. */
const dayRows = fc
  .uniqueArray(fc.integer({ min: 0, max: 120 }), { minLength: 1, maxLength: 20 })
  .chain((offsets) =>
    fc.tuple(
      ...offsets
        .sort((a, b) => a - b)
        .map((offset) =>
          fc
            .record({
              inputTokens: count,
              outputTokens: count,
              cacheCreationTokens: count,
              cacheReadTokens: count,
              totalCost: fc.option(fc.double({ min: 0, max: 1000, noNaN: true }), { nil: null }),
              models: fc.uniqueArray(fc.constantFrom('a', 'b', 'gpt-5.1', 'other'), { maxLength: 3 }),
            })
            .map((figures) =>
              row(new Date(Date.UTC(2024, 0, 15 + offset)).toISOString().slice(0, 10), figures),
            ),
        ),
    ),
  );

const sum = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0);

describe('usage chart series', () => {
  it('lists every calendar day between two, across month ends and leap days', () => {
    expect(daysBetween('2024-02-27', '2024-03-01')).toEqual([
      '2024-02-27',
      '2024-02-28',
      '2024-02-29',
      '2024-03-01',
    ]);
    expect(daysBetween('2026-12-31', '2027-01-01')).toEqual(['2026-12-31', '2027-01-01']);
    expect(daysBetween('2026-01-02', '2026-01-01')).toEqual([]);
  });

  it('draws tokens on every day from the first to the last, each kind summing to the rows', () => {
    fc.assert(
      fc.property(dayRows, (rows) => {
        const { data, series } = tokenChart(rows);
        const first = rows[0]?.key ?? '';
        const last = rows[rows.length - 1]?.key ?? '';
        expect(data.map((d) => d.day)).toEqual(daysBetween(first, last));
        expect(series.map((s) => s.name)).toEqual(['input', 'output', 'cacheWrite', 'cacheRead']);
        const total = (name: string) => sum(data.map((d) => d[name] as number));
        expect(total('input')).toBe(sum(rows.map((r) => r.inputTokens)));
        expect(total('output')).toBe(sum(rows.map((r) => r.outputTokens)));
        expect(total('cacheWrite')).toBe(sum(rows.map((r) => r.cacheCreationTokens)));
        expect(total('cacheRead')).toBe(sum(rows.map((r) => r.cacheReadTokens)));
      }),
    );
    expect(tokenChart([])).toEqual({ data: [], series: expect.any(Array) });
  });

  it("stacks a day's cost to exactly the host's total, over distinct series keys", () => {
    fc.assert(
      fc.property(dayRows, (rows) => {
        const { data, series } = costChart(rows, new Map());
        const names = series.map((s) => s.name);
        expect(new Set(names).size).toBe(names.length);
        for (const r of rows) {
          const datum = data.find((d) => d.day === r.key);
          const stacked = sum(names.map((name) => (datum?.[name] as number | undefined) ?? 0));
          expect(stacked).toBeCloseTo(r.totalCost ?? 0, 9);
        }
      }),
    );
  });

  it("gives a one-model day's cost to its model, splits by the per-model rows, else stacks 'Several models'", () => {
    const rows = [
      row('2026-11-01', { totalCost: 2, models: ['gpt-5.1'] }),
      row('2026-11-02', { totalCost: 3, models: ['a', 'gpt-5.1', 'mine'], unpricedModels: ['mine'] }),
      row('2026-11-03', { totalCost: 5, models: ['a', 'b'] }),
      row('2026-11-05', { totalCost: null, models: ['mine'], unpricedModels: ['mine'] }),
    ];
    const split = new Map([
      [
        '2026-11-02',
        [
          row('gpt-5.1', { totalCost: 1 }),
          row('a', { totalCost: 2 }),
          row('mine', { totalCost: null, unpricedModels: ['mine'] }),
        ],
      ],
    ]);
    const { data, series } = costChart(rows, split);
    expect(series).toEqual([
      { name: 'm0', label: 'gpt-5.1', color: 'blue.6' },
      { name: 'm1', label: 'a', color: 'teal.6' },
      OTHER_MODELS,
    ]);
    expect(data).toEqual([
      { day: '2026-11-01', m0: 2, m1: 0, other: 0 },
      { day: '2026-11-02', m0: 1, m1: 2, other: 0 },
      { day: '2026-11-03', m0: 0, m1: 0, other: 5 },
      { day: '2026-11-04', m0: 0, m1: 0, other: 0 },
      { day: '2026-11-05', m0: 0, m1: 0, other: 0 },
    ]);
    expect(unpricedModels(rows)).toEqual(['mine']);
  });

  it('asks for the latest multi-model priced days only, at most the bound', () => {
    const rows = [
      row('2026-11-01', { totalCost: 1, models: ['a', 'b'] }),
      row('2026-11-02', { totalCost: 1, models: ['a'] }),
      row('2026-11-03', { totalCost: 1, models: ['a', 'mine'], unpricedModels: ['mine'] }),
      row('2026-11-04', { totalCost: null, models: ['x', 'y'], unpricedModels: ['x', 'y'] }),
      row('2026-11-05', { totalCost: 1, models: ['a', 'b'] }),
      row('2026-11-06', { totalCost: 1, models: ['a', 'b', 'c'] }),
    ];
    expect(daysToSplit(rows, 10)).toEqual(['2026-11-01', '2026-11-05', '2026-11-06']);
    expect(daysToSplit(rows, 2)).toEqual(['2026-11-05', '2026-11-06']);
    expect(daysToSplit(rows, 0)).toEqual([]);
  });
});
