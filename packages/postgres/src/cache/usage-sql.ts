import type pg from 'pg';
import type { HourUsage } from '@strand/projection';
import {
  USAGE_COLUMNS,
  usageSessionsOf,
  type ListIndexRow,
  type UsageIndexQuery,
  type UsageIndexSession,
  type UsageQueryRow,
} from '@strand/projection-cache';

// The SQLite engine's rules (sqlite-usage-hours.ts): hours only onto the row of their own
// incarnation, never back to an older cut; hours the row no longer vouches for are dropped. Each
// statement covers a whole batch of distinct sessions (arrays, `unnest`).
const DROP_STALE = `
DELETE FROM usage_hours u WHERE u.session_id = ANY($1::text[])
  AND NOT EXISTS (SELECT 1 FROM list_rows l WHERE l.session_id = u.session_id AND l.usage_as_of IS NOT NULL)`;
/**
 * Claims the row for the new cut where the rule allows it, and replaces the hours of the claimed
 * sessions only. One statement: the data-modifying CTEs share a snapshot, so the DELETE sees the
 * old hours and never the ones inserted beside it.
 */
const CLAIM_AND_WRITE = `
WITH claimed AS (
  UPDATE list_rows l SET usage_as_of = c.as_of
  FROM unnest($1::text[], $2::text[], $3::bigint[]) AS c(id, incarnation, as_of)
  WHERE l.session_id = c.id AND l.incarnation = c.incarnation
    AND (l.usage_as_of IS NULL OR l.usage_as_of <= c.as_of)
  RETURNING l.session_id
), dropped AS (
  DELETE FROM usage_hours u WHERE u.session_id IN (SELECT session_id FROM claimed)
)
INSERT INTO usage_hours (session_id, hour, provider, model, long_context, input, output,
  cache_creation, cache_read, reasoning, reported_usd)
SELECT h.* FROM unnest($4::text[], $5::bigint[], $6::text[], $7::text[], $8::boolean[], $9::bigint[],
  $10::bigint[], $11::bigint[], $12::bigint[], $13::bigint[], $14::double precision[])
  AS h(session_id, hour, provider, model, long_context, input, output, cache_creation, cache_read,
    reasoning, reported_usd)
WHERE h.session_id IN (SELECT session_id FROM claimed)`;
const DROP = 'DELETE FROM usage_hours WHERE session_id = $1';
export const CLEAR_USAGE = 'DELETE FROM usage_hours';

/**
 * After the list rows' upsert, in its transaction, for distinct sessions: drops stale hours, then
 * writes each row's `usage` where it is the newest — two statements for the whole batch.
 */
export async function writeUsage(
  client: pg.PoolClient,
  rows: readonly Pick<ListIndexRow, 'header' | 'incarnation' | 'usage'>[],
): Promise<void> {
  await client.query(DROP_STALE, [rows.map((row) => row.header.id)]);
  const withUsage = rows.flatMap((row) => (row.usage === undefined ? [] : [{ row, usage: row.usage }]));
  if (withUsage.length === 0) return;
  const hours = withUsage.flatMap(({ row, usage }) =>
    (usage.byHour ?? []).map((entry) => ({ id: row.header.id, entry })),
  );
  const column = <T>(pick: (entry: HourUsage) => T): T[] => hours.map(({ entry }) => pick(entry));
  await client.query(CLAIM_AND_WRITE, [
    withUsage.map(({ row }) => row.header.id),
    withUsage.map(({ row }) => row.incarnation),
    withUsage.map(({ usage }) => usage.asOfSeq),
    hours.map(({ id }) => id),
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
