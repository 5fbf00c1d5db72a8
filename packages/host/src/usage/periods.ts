/**
 * Calendar periods in a time zone, for usage over days, weeks and months. The usage unit keeps
 * tokens per UTC hour, so a period holds the hours that start inside it: exact in every zone whose
 * offset is whole hours, and to the half hour in the others (India, Nepal, parts of Australia).
 */

export type Period = 'day' | 'week' | 'month';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const formatters = new Map<string, Intl.DateTimeFormat>();

/** True for a zone name `Intl` knows (`UTC`, `Europe/Berlin`, …). */
export function isTimeZone(zone: string): boolean {
  try {
    formatter(zone);
    return true;
  } catch {
    return false;
  }
}

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (f === undefined) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(zone, f);
  }
  return f;
}

interface LocalTime {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
}

function local(ms: number, zone: string): LocalTime {
  const parts: Record<string, number> = {};
  for (const p of formatter(zone).formatToParts(ms))
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return {
    year: parts.year!,
    month: parts.month!,
    day: parts.day!,
    hour: parts.hour!,
    minute: parts.minute!,
    second: parts.second!,
  };
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');
const dateKey = (y: number, m: number, d: number): string => `${pad(y, 4)}-${pad(m)}-${pad(d)}`;

/** The period an instant falls in, as a sortable key: `2026-12-04`, the week's Monday `2026-11-30`, `2026-12`. */
export function periodKey(ms: number, period: Period, zone: string): string {
  const t = local(ms, zone);
  if (period === 'month') return `${pad(t.year, 4)}-${pad(t.month)}`;
  if (period === 'day') return dateKey(t.year, t.month, t.day);
  // Weeks start on Monday: step back from the local date (a calendar date, so UTC arithmetic).
  const date = Date.UTC(t.year, t.month - 1, t.day);
  const mondayBased = (new Date(date).getUTCDay() + 6) % 7;
  const monday = new Date(date - mondayBased * DAY_MS);
  return dateKey(monday.getUTCFullYear(), monday.getUTCMonth() + 1, monday.getUTCDate());
}

/** The instant a local wall-clock date's midnight is in `zone` (the first instant of that day). */
export function startOfLocalDay(year: number, month: number, day: number, zone: string): number {
  const wall = Date.UTC(year, month - 1, day);
  // The zone's offset at the guess, then once more at the answer (a DST change may fall between).
  let guess = wall - offsetAt(wall, zone);
  guess = wall - offsetAt(guess, zone);
  return guess;
}

function offsetAt(ms: number, zone: string): number {
  const t = local(ms, zone);
  const asUtc = Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second);
  return asUtc - Math.floor(ms / 1000) * 1000;
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * A `--since`/`--until` bound as an instant: `YYYY-MM-DD` is a whole local day (`since` from its
 * first instant, `until` through its last, so the bound is the next day's first instant,
 * exclusive); an ISO time is that instant. Undefined for anything else.
 */
export function parseBound(text: string, edge: 'since' | 'until', zone: string): number | undefined {
  const date = DATE_ONLY.exec(text);
  if (date !== null) {
    const [y, m, d] = [Number(date[1]), Number(date[2]), Number(date[3])];
    const check = new Date(Date.UTC(y, m - 1, d));
    if (check.getUTCFullYear() !== y || check.getUTCMonth() !== m - 1 || check.getUTCDate() !== d)
      return undefined;
    if (edge === 'since') return startOfLocalDay(y, m, d, zone);
    const next = new Date(Date.UTC(y, m - 1, d) + DAY_MS);
    return startOfLocalDay(next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate(), zone);
  }
  // An ISO time: a date, `T`, a time, and a zone designator (a time without one is ambiguous).
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(text)) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}
