import type { UsageRow } from '@strand/protocol';

/*
 * `usage.summary` rows turned into what the charts draw: one datum per calendar day (days without
 * usage between the first and the last drawn as zero, so the axis is time and not just the days
 * that had something), and the series stacked in each bar. Pure: the rows come in, nothing is
 * priced here — costs are the host's, only split among the models it already priced.
 */

/** One stacked series as `@mantine/charts` takes it: the datum key, its legend label, its colour. */
export interface ChartSeries {
  readonly name: string;
  readonly label: string;
  readonly color: string;
}

/** A chart's data: a row per day, `day` the `YYYY-MM-DD` key and a number per series `name`. */
export type DayDatum = { readonly day: string } & Readonly<Record<string, number | string>>;

export interface DayChart {
  readonly data: readonly DayDatum[];
  readonly series: readonly ChartSeries[];
}

/** The four token kinds a bar stacks; reasoning is a part of output, so it is no series of its own. */
export const TOKEN_SERIES: readonly ChartSeries[] = [
  { name: 'input', label: 'Input', color: 'blue.6' },
  { name: 'output', label: 'Output', color: 'teal.6' },
  { name: 'cacheWrite', label: 'Cache write', color: 'orange.6' },
  { name: 'cacheRead', label: 'Cache read', color: 'gray.5' },
];

const MODEL_COLORS = ['blue.6', 'teal.6', 'violet.6', 'orange.6', 'cyan.6', 'pink.6', 'lime.7', 'indigo.4'];
/** The series of a day's cost that no per-model call split (see `daysToSplit`). */
export const OTHER_MODELS: ChartSeries = { name: 'other', label: 'Several models', color: 'gray.5' };

/** A day's unsplit cost in `costChart`'s parts: no model name (which may be any string) can be it. */
const SEVERAL = '\u0000several';

const DAY_MS = 86_400_000;

function dayNumber(day: string): number {
  const [year = NaN, month = NaN, date = NaN] = day.split('-').map(Number);
  return Date.UTC(year, month - 1, date) / DAY_MS;
}

/** Every calendar day from `first` to `last`, both included (`YYYY-MM-DD`; none when last < first). */
export function daysBetween(first: string, last: string): string[] {
  const days: string[] = [];
  for (let n = dayNumber(first), end = dayNumber(last); n <= end; n++)
    days.push(new Date(n * DAY_MS).toISOString().slice(0, 10));
  return days;
}

/** `rows` (periods ascending, as the host sends them) over every day from the first to the last. */
function overEveryDay(
  rows: readonly UsageRow[],
  names: readonly string[],
  values: (row: UsageRow) => Readonly<Record<string, number>>,
): DayDatum[] {
  const first = rows[0];
  const last = rows[rows.length - 1];
  if (first === undefined || last === undefined) return [];
  const byDay = new Map(rows.map((row) => [row.key, row]));
  const zero = Object.fromEntries(names.map((name) => [name, 0]));
  return daysBetween(first.key, last.key).map((day) => {
    const row = byDay.get(day);
    return { ...zero, ...(row === undefined ? {} : values(row)), day };
  });
}

/** Tokens per day, stacked by kind: fresh input, output, cache writes, cache reads. */
export function tokenChart(dayRows: readonly UsageRow[]): DayChart {
  const data = overEveryDay(
    dayRows,
    TOKEN_SERIES.map((s) => s.name),
    (row) => ({
      input: row.inputTokens,
      output: row.outputTokens,
      cacheWrite: row.cacheCreationTokens,
      cacheRead: row.cacheReadTokens,
    }),
  );
  return { data, series: TOKEN_SERIES };
}

/** The models of a row the host priced (`models` less `unpricedModels`). */
function pricedModels(row: UsageRow): string[] {
  return row.models.filter((model) => !row.unpricedModels.includes(model));
}

/**
 * The days whose cost needs a per-model call to be split (more than one priced model), the latest
 * `max` of them: each costs the host a pass over the corpus, so the page asks for a bounded few.
 * A day with one priced model needs none — its whole cost is that model's.
 */
export function daysToSplit(dayRows: readonly UsageRow[], max: number): string[] {
  const days = dayRows.filter((row) => row.totalCost !== null && pricedModels(row).length > 1);
  return days.slice(Math.max(0, days.length - max)).map((row) => row.key);
}

/**
 * Cost per day stacked by model. A day's cost goes to its one priced model, or is split by that
 * day's `by: 'model'` rows (`split`), or — a multi-model day past `daysToSplit`'s bound — drawn as
 * one "Several models" part. Unpriced tokens draw nothing (their cost is unknown, not 0). Models
 * are keyed `m0`, `m1`… by cost, most first: a model name such as `gpt-5.1` would read as a path
 * where the chart looks a key up.
 */
export function costChart(
  dayRows: readonly UsageRow[],
  split: ReadonlyMap<string, readonly UsageRow[]>,
): DayChart {
  const perDay = new Map<string, Map<string, number>>();
  const totals = new Map<string, number>();
  for (const row of dayRows) {
    if (row.totalCost === null) continue;
    const parts = new Map<string, number>();
    const models = split.get(row.key);
    const priced = pricedModels(row);
    if (models !== undefined) {
      for (const model of models) if (model.totalCost !== null) parts.set(model.key, model.totalCost);
    } else if (priced.length === 1 && priced[0] !== undefined) parts.set(priced[0], row.totalCost);
    else parts.set(SEVERAL, row.totalCost);
    perDay.set(row.key, parts);
    for (const [model, cost] of parts)
      if (model !== SEVERAL) totals.set(model, (totals.get(model) ?? 0) + cost);
  }
  const models = [...totals].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([model]) => model);
  const keyOf = new Map(models.map((model, i) => [model, `m${i}`]));
  const series: ChartSeries[] = models.map((model, i) => ({
    name: `m${i}`,
    label: model,
    color: MODEL_COLORS[i % MODEL_COLORS.length] ?? 'gray.6',
  }));
  const hasOther = [...perDay.values()].some((parts) => parts.has(SEVERAL));
  if (hasOther) series.push(OTHER_MODELS);
  const data = overEveryDay(
    dayRows,
    series.map((s) => s.name),
    (row) => {
      const values: Record<string, number> = {};
      for (const [model, cost] of perDay.get(row.key) ?? [])
        values[model === SEVERAL ? OTHER_MODELS.name : (keyOf.get(model) ?? model)] = cost;
      return values;
    },
  );
  return { data, series };
}

/** Every model some row left unpriced, sorted: what the page's note names. */
export function unpricedModels(rows: readonly UsageRow[]): string[] {
  return [...new Set(rows.flatMap((row) => row.unpricedModels))].sort();
}
