import type pg from 'pg';
import type { HourUsage } from '@strand/projection';
import {
  USAGE_COLUMNS,
  usageSessionsOf,
  type ListRowUsage,
  type UsageIndexQuery,
  type UsageIndexSession,
  type UsageQueryRow,
} from '@strand/projection-cache';

// The SQLite engine's rules (sqlite-usage-hours.ts): hours only onto the row of their own
// incarnation, never back to an older cut; hours the row no longer vouches for are dropped.
const CLAIM = `
UPDATE list_rows SET usage_as_of = $3
WHERE session_id = $1 AND incarnation = $2 AND (usage_as_of IS NULL OR usage_as_of <= $3)`;
const DROP_STALE = `
DELETE FROM usage_hours WHERE session_id = $1
  AND NOT EXISTS (SELECT 1 FROM list_rows WHERE session_id = $1 AND usage_as_of IS NOT NULL)`;
const DROP = 'DELETE FROM usage_hours WHERE session_id = $1';
export const CLEAR_USAGE = 'DELETE FROM usage_hours';
const INSERT = `
INSERT INTO usage_hours (session_id, hour, provider, model, long_context, input, output,
  cache_creation, cache_read, reasoning, reported_usd)
SELECT $1, h.* FROM unnest($2::bigint[], $3::text[], $4::text[], $5::boolean[], $6::bigint[],
  $7::bigint[], $8::bigint[], $9::bigint[], $10::bigint[], $11::double precision[]) AS h`;

/** After the list row's upsert, in its transaction: drops stale hours, then writes `usage` if it is the newest. */
export async function writeUsage(
  client: pg.PoolClient,
  id: string,
  incarnation: string,
  usage: ListRowUsage | undefined,
): Promise<void> {
  await client.query(DROP_STALE, [id]);
  if (usage === undefined) return;
  const claimed = await client.query(CLAIM, [id, incarnation, usage.asOfSeq]);
  if (claimed.rowCount === 0) return;
  await client.query(DROP, [id]);
  const hours = usage.byHour ?? [];
  if (hours.length === 0) return;
  const column = <T>(pick: (entry: HourUsage) => T): T[] => hours.map(pick);
  await client.query(INSERT, [
    id,
    column((e) => e.hour),
    column((e) => e.provider),
    column((e) => e.model),
    column((e) => e.longContext),
    column((e) => e.input),
    column((e) => e.output),
    column((e) => e.cacheCreation),
    column((e) => e.cacheRead),
    column((e) => e.reasoning),
    column((e) => e.reportedUsd ?? null),
  ]);
}

export async function forgetUsage(client: pg.PoolClient, id: string): Promise<void> {
  await client.query(DROP, [id]);
}

/** Every session matching the query whose usage is known, with its hours inside the bounds: one query. */
export async function selectUsage(db: pg.Pool, query: UsageIndexQuery): Promise<UsageIndexSession[]> {
  const values: unknown[] = [];
  const param = (value: unknown): string => {
    values.push(value);
    return `$${values.length}`;
  };
  const where = ['l.usage_as_of IS NOT NULL'];
  const on = ['u.session_id = l.session_id'];
  if (query.cwd !== undefined) where.push(`l.cwd = ${param(query.cwd)}`);
  if (query.harness !== undefined) where.push(`l.harness = ${param(query.harness)}`);
  if (query.ids !== undefined) where.push(`l.session_id = ANY(${param(query.ids)}::text[])`);
  if (query.since !== undefined) on.push(`u.hour >= ${param(query.since)}`);
  if (query.until !== undefined) on.push(`u.hour < ${param(query.until)}`);
  const text = `SELECT ${USAGE_COLUMNS}
    FROM list_rows l LEFT JOIN usage_hours u ON ${on.join(' AND ')}
    WHERE ${where.join(' AND ')} ORDER BY l.session_id, u.hour`;
  const result = await db.query<UsageQueryRow>({ text, values, rowMode: 'array' });
  return usageSessionsOf(result.rows);
}
