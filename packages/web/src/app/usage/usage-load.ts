import type { ParamsOf, ResultOf, UsageRow } from '@strand/protocol';
import type { UsageFilter } from '../shared/routing/usage-filter-params.js';
import { daysToSplit } from './usage-series.js';

export type UsageSummaryParams = ParamsOf<'usage.summary'>;
export type UsageSummary = ResultOf<'usage.summary'>;
/** `connection.call('usage.summary', …)`, as a function so a test hands in its own answers. */
export type UsageSummaryCall = (params: UsageSummaryParams) => Promise<UsageSummary>;

/** Everything the usage page draws, each part one grouping of `usage.summary`. */
export interface UsageData {
  /** By day under every filter: the charts, the day table and the totals. */
  readonly days: UsageSummary;
  /** By model for the days `daysToSplit` picked: how their cost stacks by model. */
  readonly dayModels: ReadonlyMap<string, readonly UsageRow[]>;
  /** By project under every filter but the project: also the project control's choices. */
  readonly projects: readonly UsageRow[];
  readonly sessions: readonly UsageRow[];
  /** By harness under every filter but the harness. */
  readonly harnesses: readonly UsageRow[];
}

/**
 * How many multi-model days get a per-model call. Each call is one pass of the host over the
 * corpus (a few hundred ms at 10,000 sessions, bench:usage), so a long range splits its latest
 * days and draws older multi-model days as one "Several models" part.
 */
export const SPLIT_DAYS = 14;

/** The wire's params for `filter` in `timeZone`, leaving out what is "all". */
export function summaryParams(filter: UsageFilter, timeZone: string): UsageSummaryParams {
  return {
    timeZone,
    ...(filter.cwd === null ? {} : { cwd: filter.cwd }),
    ...(filter.harness === null ? {} : { harness: filter.harness }),
    ...(filter.since === null ? {} : { since: filter.since }),
    ...(filter.until === null ? {} : { until: filter.until }),
  };
}

/**
 * The page's calls: four groupings at once, then the per-model days one at a time (each is a
 * corpus pass; sent together they would only queue on the host). The project and harness
 * groupings leave their own filter out, so their tables can offer the other choices.
 */
export async function loadUsage(
  call: UsageSummaryCall,
  filter: UsageFilter,
  timeZone: string,
): Promise<UsageData> {
  const params = summaryParams(filter, timeZone);
  const [days, projects, sessions, harnesses] = await Promise.all([
    call({ ...params, by: 'day' }),
    call({ ...summaryParams({ ...filter, cwd: null }, timeZone), by: 'project' }),
    call({ ...params, by: 'session' }),
    call({ ...summaryParams({ ...filter, harness: null }, timeZone), by: 'harness' }),
  ]);
  const dayModels = new Map<string, readonly UsageRow[]>();
  for (const day of daysToSplit(days.rows, SPLIT_DAYS)) {
    const { rows } = await call({ ...params, by: 'model', since: day, until: day });
    dayModels.set(day, rows);
  }
  return { days, dayModels, projects: projects.rows, sessions: sessions.rows, harnesses: harnesses.rows };
}
