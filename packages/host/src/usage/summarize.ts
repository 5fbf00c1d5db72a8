import { costOf, type PriceTable } from './pricing.js';
import { periodKey, type Period } from './periods.js';

export const USAGE_GROUPS = ['day', 'week', 'month', 'session', 'project', 'model', 'harness'] as const;
export type UsageGroup = (typeof USAGE_GROUPS)[number];

/** One model's tokens in one UTC hour, as the `usage` unit's view holds them. */
export interface HourEntry {
  readonly hour: number;
  readonly provider: string | null;
  readonly model: string | null;
  readonly longContext: boolean;
  readonly input: number;
  readonly output: number;
  readonly cacheCreation: number;
  readonly cacheRead: number;
  readonly reasoning: number;
  /** USD the harness reported for this model and hour (`session/cost`), if it reported any. */
  readonly reportedUsd?: number;
}

/** What the summary knows of one session: its identity and its own tokens per hour. */
export interface SessionUsage {
  readonly id: string;
  readonly title: string | null;
  readonly cwd: string | null;
  /** The harness that wrote it (`strand` for Strand's own sessions). */
  readonly harness: string;
  readonly byHour: readonly HourEntry[];
}

export interface SummaryOptions {
  readonly by: UsageGroup;
  readonly timeZone: string;
  /** Hours starting at or after this instant. */
  readonly since?: number;
  /** Hours starting before this instant. */
  readonly until?: number;
  readonly harness?: string;
  readonly cwd?: string;
}

/** Token figures under the names people's scripts already use (ccusage's). */
export interface UsageFigures {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheCreationTokens: number;
  readonly cacheReadTokens: number;
  readonly reasoningTokens: number;
  /** Fresh input + output + cache writes + cache reads (reasoning is inside output). */
  readonly totalTokens: number;
  /** USD; null when no token of the row is priced (an unpriced model shows "—", never 0). */
  readonly totalCost: number | null;
  /** Models with tokens in the row that the table does not price: `totalCost` leaves them out. */
  readonly unpricedModels: readonly string[];
  /** USD the harnesses themselves reported for the row (`session/cost`); null when none did. */
  readonly reportedCost: number | null;
}

export interface UsageRow extends UsageFigures {
  /** The group's key: a date, a week's Monday, a month, a session id, a folder, a model, a harness. */
  readonly key: string;
  /** What a person reads for the key (a session's title, "(no project)", …). */
  readonly label: string;
  readonly sessions: number;
  readonly models: readonly string[];
}

export interface UsageSummary {
  readonly rows: readonly UsageRow[];
  readonly totals: UsageFigures & { readonly sessions: number };
}

const UNNAMED_MODEL = '(unnamed model)';

interface Accumulator {
  readonly label: string;
  input: number;
  output: number;
  cacheCreation: number;
  cacheRead: number;
  reasoning: number;
  cost: number;
  priced: boolean;
  reported: number | null;
  readonly unpriced: Set<string>;
  readonly sessions: Set<string>;
  readonly models: Set<string>;
}

/**
 * Sums the sessions' own hourly tokens into rows of the chosen grouping (time periods ascending,
 * the others by total tokens, most first), each hour-and-model piece priced by `prices` at its
 * hour. Pure: every input it reads is given.
 */
export function summarizeUsage(
  sessions: readonly SessionUsage[],
  options: SummaryOptions,
  prices: PriceTable,
): UsageSummary {
  const groups = new Map<string, Accumulator>();
  const total = accumulator('total');
  // Sessions share hours: each hour's period key is worked out once (Intl is the slow part).
  const periods = new Map<number, string>();
  const periodOf = (hour: number, period: Period): string => {
    let key = periods.get(hour);
    if (key === undefined) periods.set(hour, (key = periodKey(hour, period, options.timeZone)));
    return key;
  };
  for (const session of sessions) {
    if (options.harness !== undefined && session.harness !== options.harness) continue;
    if (options.cwd !== undefined && session.cwd !== options.cwd) continue;
    for (const entry of session.byHour) {
      if (options.since !== undefined && entry.hour < options.since) continue;
      if (options.until !== undefined && entry.hour >= options.until) continue;
      const [key, label] = groupOf(session, entry, options, periodOf);
      let group = groups.get(key);
      if (group === undefined) groups.set(key, (group = accumulator(label)));
      // An entry of a harness's cost report alone has no tokens to price (nor to call unpriced).
      const priced = !hasTokens(entry)
        ? 0
        : entry.model === null
          ? undefined
          : prices.rates(entry.provider, entry.model, entry.longContext, entry.hour);
      const cost = priced === undefined || priced === 0 ? priced : costOf(entry, priced);
      for (const acc of [group, total]) add(acc, session.id, entry, cost);
    }
  }
  const rows = [...groups].map(([key, acc]) => ({
    key,
    label: acc.label,
    ...figures(acc),
    sessions: acc.sessions.size,
    models: [...acc.models].sort(),
  }));
  if (isPeriod(options.by)) rows.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  else rows.sort((a, b) => b.totalTokens - a.totalTokens || (a.key < b.key ? -1 : 1));
  return { rows, totals: { ...figures(total), sessions: total.sessions.size } };
}

const isPeriod = (by: UsageGroup): by is Period => by === 'day' || by === 'week' || by === 'month';

function groupOf(
  session: SessionUsage,
  entry: HourEntry,
  options: SummaryOptions,
  periodOf: (hour: number, period: Period) => string,
): [string, string] {
  switch (options.by) {
    case 'day':
    case 'week':
    case 'month': {
      const key = periodOf(entry.hour, options.by);
      return [key, key];
    }
    case 'session':
      return [session.id, session.title ?? session.id];
    case 'project':
      return [session.cwd ?? '', session.cwd ?? '(no project)'];
    case 'model':
      return [entry.model ?? '', entry.model ?? UNNAMED_MODEL];
    case 'harness':
      return [session.harness, session.harness];
  }
}

function accumulator(label: string): Accumulator {
  return {
    label,
    input: 0,
    output: 0,
    cacheCreation: 0,
    cacheRead: 0,
    reasoning: 0,
    cost: 0,
    priced: false,
    reported: null,
    unpriced: new Set(),
    sessions: new Set(),
    models: new Set(),
  };
}

function add(acc: Accumulator, sessionId: string, entry: HourEntry, cost: number | undefined): void {
  acc.input += entry.input;
  acc.output += entry.output;
  acc.cacheCreation += entry.cacheCreation;
  acc.cacheRead += entry.cacheRead;
  acc.reasoning += entry.reasoning;
  acc.sessions.add(sessionId);
  const model = entry.model ?? UNNAMED_MODEL;
  acc.models.add(model);
  if (cost === undefined) acc.unpriced.add(model);
  else if (hasTokens(entry)) {
    acc.cost += cost;
    acc.priced = true;
  }
  if (entry.reportedUsd !== undefined) acc.reported = (acc.reported ?? 0) + entry.reportedUsd;
}

const hasTokens = (entry: HourEntry): boolean =>
  entry.input + entry.output + entry.cacheCreation + entry.cacheRead > 0;

function figures(acc: Accumulator): UsageFigures {
  return {
    inputTokens: acc.input,
    outputTokens: acc.output,
    cacheCreationTokens: acc.cacheCreation,
    cacheReadTokens: acc.cacheRead,
    reasoningTokens: acc.reasoning,
    totalTokens: acc.input + acc.output + acc.cacheCreation + acc.cacheRead,
    totalCost: acc.priced ? acc.cost : null,
    unpricedModels: [...acc.unpriced].sort(),
    reportedCost: acc.reported,
  };
}
