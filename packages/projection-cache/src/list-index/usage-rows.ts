import type { HourUsage } from '@strand/projection';
import type { UsageIndexSession } from './list-row.js';

/**
 * The columns every engine's usage query selects, in this order (`list_rows` as l, `usage_hours`
 * LEFT JOINed as u), so one decoder serves them all.
 */
export const USAGE_COLUMNS = `l.session_id, l.incarnation, l.title, l.cwd, l.harness, u.hour, u.provider, u.model,
  u.long_context, u.input, u.output, u.cache_creation, u.cache_read, u.reasoning, u.reported_usd`;

/**
 * One joined row as a driver hands it back (array mode): the session's columns, then one hour or
 * NULLs. Counts may arrive as text (PostgreSQL's bigint) and the flag as 0/1 (SQLite) or a boolean.
 */
export type UsageQueryRow = [
  sessionId: string,
  incarnation: string,
  title: string | null,
  cwd: string | null,
  harness: string,
  hour: number | string | null,
  provider: string | null,
  model: string | null,
  longContext: number | boolean | null,
  input: number | string | null,
  output: number | string | null,
  cacheCreation: number | string | null,
  cacheRead: number | string | null,
  reasoning: number | string | null,
  reportedUsd: number | null,
];

/** Joined rows, ordered by session, into one entry per session (`Number` is exact for any count a session reaches). */
export function usageSessionsOf(rows: readonly UsageQueryRow[]): UsageIndexSession[] {
  const sessions: UsageIndexSession[] = [];
  let hours: HourUsage[] = [];
  for (const row of rows) {
    const [id, incarnation, title, cwd, harness, hour] = row;
    if (sessions.at(-1)?.id !== id) {
      hours = [];
      sessions.push({ id, incarnation, title, cwd, harness, byHour: hours });
    }
    if (hour !== null) hours.push(hourOf(row, Number(hour)));
  }
  return sessions;
}

function hourOf(row: UsageQueryRow, hour: number): HourUsage {
  const [, , , , , , provider, model, longContext, input, output, cacheCreation, cacheRead, reasoning, usd] =
    row;
  return {
    hour,
    provider,
    model,
    longContext: longContext === true || longContext === 1,
    input: Number(input),
    output: Number(output),
    cacheCreation: Number(cacheCreation),
    cacheRead: Number(cacheRead),
    reasoning: Number(reasoning),
    ...(usd === null ? {} : { reportedUsd: usd }),
  };
}
