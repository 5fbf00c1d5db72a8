import { isHarnessName } from '../harness-labels.js';

/*
 * The usage page's filters in its query string (`/usage?cwd=…&harness=…&since=…&until=…`), so a
 * reload or a shared link keeps them — the same `cwd` and `harness` names the session list uses
 * (list-filter-params.ts), plus a day range. A value the wire would refuse (a harness it does not
 * know, a date that is not a calendar `YYYY-MM-DD`) reads as "all" rather than failing the page.
 */

export interface UsageFilter {
  /** Only sessions whose header `cwd` is exactly this folder; `null` for all. */
  readonly cwd: string | null;
  readonly harness: string | null;
  /** First day (`YYYY-MM-DD`, in the browser's zone), inclusive; `null` for no lower bound. */
  readonly since: string | null;
  /** Last day, inclusive; `null` for no upper bound. */
  readonly until: string | null;
}

export const NO_USAGE_FILTER: UsageFilter = { cwd: null, harness: null, since: null, until: null };

const NAMES = ['cwd', 'harness', 'since', 'until'] as const;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether `text` is a real calendar day written `YYYY-MM-DD` (what the wire's `since`/`until` take). */
export function isDay(text: string): boolean {
  const match = DAY.exec(text);
  if (match === null) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** The filter a query string names; absent, empty or unusable parameters are "all". */
export function readUsageFilter(search: string): UsageFilter {
  const params = new URLSearchParams(search);
  const value = (name: string): string | null => {
    const raw = params.get(name);
    return raw === null || raw === '' ? null : raw;
  };
  const harness = value('harness');
  const since = value('since');
  const until = value('until');
  return {
    cwd: value('cwd'),
    harness: harness !== null && isHarnessName(harness) ? harness : null,
    since: since !== null && isDay(since) ? since : null,
    until: until !== null && isDay(until) ? until : null,
  };
}

/** `search` with the filter's parameters set (or removed for "all"), everything else kept in order. */
export function writeUsageFilter(search: string, filter: UsageFilter): string {
  const params = new URLSearchParams(search);
  for (const name of NAMES) {
    const value = filter[name];
    if (value === null) params.delete(name);
    else params.set(name, value);
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}
