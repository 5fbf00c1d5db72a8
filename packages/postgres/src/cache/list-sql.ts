import type pg from 'pg';
import {
  listColumnsOf,
  titlePrefixEnd,
  type ListIdentity,
  type ListIdentityPage,
  type ListIndexFilter,
  type ListIndexQuery,
  type ListIndexRow,
} from '@strand/projection-cache';
import { CLEAR_USAGE, forgetUsage, writeUsage } from './usage-sql.js';

/** A change to the list index, written behind in order with the cache rows' changes. */
export type ListChange =
  | { readonly kind: 'list-upsert'; readonly sessionId: string; readonly row: ListIndexRow }
  | { readonly kind: 'list-forget' | 'list-forget-hints'; readonly sessionId: string }
  | { readonly kind: 'list-clear'; readonly sessionId?: undefined }
  | {
      readonly kind: 'list-marker';
      readonly sessionId?: undefined;
      readonly marker: string;
      /**
       * Asked when the record is written, after every change queued before it settled: false when
       * one of them failed (it was dropped, so the index may lack a row the walk wrote).
       */
      readonly recordable: () => boolean;
    };

const COLUMNS = 'header, incarnation, hints, as_of_seq';

type StoredRow = [header: string, incarnation: string, hints: string | null, asOfSeq: string | null];

/**
 * The SQLite engine's rule (sqlite-list-index.ts): another incarnation replaces the row; the same
 * incarnation only with hints at a cut not older than the stored one, so a header-only row never
 * erases hints and a slower writer never moves them back. Many rows at once: the columns arrive as
 * arrays (`unnest`), one statement for a whole batch of distinct sessions (ON CONFLICT DO UPDATE
 * may touch a row once per statement: the caller never puts one id twice in a batch).
 */
const UPSERT = `
INSERT INTO list_rows AS stored
  (session_id, incarnation, header, hints, as_of_seq, activity_at, cwd, harness, parent, title, project_name)
SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[],
  $6::double precision[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[])
ON CONFLICT (session_id) DO UPDATE SET
  incarnation = EXCLUDED.incarnation, header = EXCLUDED.header, hints = EXCLUDED.hints,
  as_of_seq = EXCLUDED.as_of_seq, activity_at = EXCLUDED.activity_at, cwd = EXCLUDED.cwd,
  harness = EXCLUDED.harness, parent = EXCLUDED.parent, title = EXCLUDED.title,
  project_name = EXCLUDED.project_name,
  usage_as_of = CASE WHEN EXCLUDED.incarnation <> stored.incarnation THEN NULL ELSE stored.usage_as_of END
WHERE EXCLUDED.incarnation <> stored.incarnation
   OR (EXCLUDED.hints IS NOT NULL AND (stored.as_of_seq IS NULL OR EXCLUDED.as_of_seq >= stored.as_of_seq))`;
/** The hints (and usage) become unknown and the sort key falls back to the header's `createdAt`. */
const FORGET_HINTS = `
UPDATE list_rows SET hints = NULL, as_of_seq = NULL, title = NULL, usage_as_of = NULL,
  activity_at = (header::jsonb ->> 'createdAt')::double precision
WHERE session_id = $1`;
const FORGET = 'DELETE FROM list_rows WHERE session_id = $1';
const RECORD_MARKER = `
INSERT INTO list_meta (key, value) VALUES ('reconciled_marker', $1)
ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`;
/**
 * `clear` drops the marker itself (the trigger keeps it when no row was there to delete), in the
 * same round trip as the rows (two statements, no parameters: one simple query).
 */
const CLEAR = "DELETE FROM list_rows; DELETE FROM list_meta WHERE key = 'reconciled_marker'";
const READ_MARKER = "SELECT value FROM list_meta WHERE key = 'reconciled_marker'";

/**
 * Upserts the list rows of distinct sessions (inside the caller's transaction), with their usage
 * hours: three statements whatever the number of rows (`upsertListRows` of one row each gives
 * the same result, in more round trips).
 */
export async function upsertListRows(client: pg.PoolClient, rows: readonly ListIndexRow[]): Promise<void> {
  if (rows.length === 0) return;
  const columns = rows.map((row) => ({ row, c: listColumnsOf(row) }));
  const column = <T>(pick: (entry: (typeof columns)[number]) => T): T[] => columns.map(pick);
  await client.query(UPSERT, [
    column(({ c }) => c.id),
    column(({ row }) => row.incarnation),
    column(({ row }) => JSON.stringify(row.header)),
    column(({ row }) => (row.hints === undefined ? null : JSON.stringify(row.hints.values))),
    column(({ row }) => row.hints?.asOfSeq ?? null),
    column(({ c }) => c.activityAt),
    column(({ c }) => c.cwd),
    column(({ c }) => c.harness),
    column(({ c }) => c.parent),
    column(({ c }) => c.title),
    column(({ c }) => c.projectName),
  ]);
  await writeUsage(client, rows);
}

export async function forgetListHints(client: pg.PoolClient, sessionId: string): Promise<void> {
  await client.query(FORGET_HINTS, [sessionId]);
  await forgetUsage(client, sessionId);
}

/**
 * Writes one list change other than an upsert (inside the caller's transaction); upserts are
 * batched by the caller through `upsertListRows`.
 */
export async function writeListChange(
  client: pg.PoolClient,
  change: Exclude<ListChange, { kind: 'list-upsert' }>,
): Promise<void> {
  switch (change.kind) {
    case 'list-forget':
      await client.query(FORGET, [change.sessionId]);
      return forgetUsage(client, change.sessionId);
    case 'list-forget-hints':
      return forgetListHints(client, change.sessionId);
    case 'list-clear':
      await client.query(CLEAR);
      await client.query(CLEAR_USAGE);
      return;
    case 'list-marker':
      // Not recorded: the marker in the database stays older than persistence's, so the next
      // open walks and rewrites the row that failed.
      if (!change.recordable()) return;
      await client.query(RECORD_MARKER, [change.marker]);
      return;
    default:
      return change satisfies never;
  }
}

/**
 * Where-clause pieces per filter field, as in the SQLite engine: `titlePrefix` compares the
 * leading characters exactly (case-sensitive, no LIKE wildcards), and the `title >= prefix` and
 * `title < titlePrefixEnd(prefix)` bounds let the title index narrow the scan to the prefix's rows
 * (under `COLLATE "C"`, the column's collation); the planner's statistics choose between that
 * range and the list order.
 */
const FILTER_SQL: readonly {
  readonly field: keyof ListIndexFilter;
  readonly sql: (param: (value: unknown) => string, value: unknown) => string;
}[] = [
  { field: 'cwd', sql: (param, value) => `cwd = ${param(value)}` },
  { field: 'projectName', sql: (param, value) => `project_name = ${param(value)}` },
  { field: 'harness', sql: (param, value) => `harness = ${param(value)}` },
  {
    field: 'parent',
    sql: (param, value) => (value === null ? 'parent IS NULL' : `parent = ${param(value)}`),
  },
  {
    field: 'titlePrefix',
    sql: (param, value) => {
      const prefix = param(value);
      // Bounded above too, so the planner's estimate is the prefix's rows, not every title past it.
      const end = titlePrefixEnd(value as string);
      const below = end === undefined ? '' : ` AND title < ${param(end)}`;
      return `title >= ${prefix}${below} AND left(title, length(${prefix})) = ${prefix}`;
    },
  },
];

/** One page in the list order (activity descending, then id), strictly after `query.after`. */
export async function selectListPage(db: pg.Pool, query: ListIndexQuery): Promise<ListIndexRow[]> {
  const values: unknown[] = [];
  const param = (value: unknown): string => {
    values.push(value);
    return `$${values.length}`;
  };
  const where: string[] = [];
  for (const { field, sql } of FILTER_SQL) {
    const value = query.filter[field];
    if (value !== undefined) where.push(sql(param, value));
  }
  if (query.after !== undefined) {
    const at = param(query.after.at);
    // The leading bound is implied by the rest, but without it the planner cannot start the
    // index range at the cursor: it filters every row before it (a deep page of a million-row
    // index took 1.6 s; with it, under 1 ms — EXPLAIN ANALYZE in docs/scale.md).
    where.push(
      `activity_at <= ${at} AND (activity_at < ${at} OR (activity_at = ${at} AND session_id > ${param(query.after.id)}))`,
    );
  }
  const text = `SELECT ${COLUMNS} FROM list_rows${where.length === 0 ? '' : ` WHERE ${where.join(' AND ')}`}
    ORDER BY activity_at DESC, session_id ASC LIMIT ${param(query.limit)}`;
  const result = await db.query<StoredRow>({ text, values, rowMode: 'array' });
  return result.rows.map(decodeRow);
}

export async function selectListRows(db: pg.Pool, ids: readonly string[]): Promise<ListIndexRow[]> {
  if (ids.length === 0) return [];
  const result = await db.query<StoredRow>({
    text: `SELECT ${COLUMNS} FROM list_rows WHERE session_id = ANY($1::text[])`,
    values: [ids],
    rowMode: 'array',
  });
  return result.rows.map(decodeRow);
}

/** One keyset page of identities in id order (the column is `COLLATE "C"`: a primary key range). */
export async function selectListIdentities(db: pg.Pool, page: ListIdentityPage): Promise<ListIdentity[]> {
  const result = await db.query<[string, string, string | null, boolean]>({
    name: 'strand_list_identities',
    text: 'SELECT session_id, incarnation, as_of_seq, usage_as_of IS NOT NULL FROM list_rows WHERE session_id > $1 ORDER BY session_id LIMIT $2',
    values: [page.after, page.limit],
    rowMode: 'array',
  });
  return result.rows.map(([sessionId, incarnation, asOfSeq, usageKnown]) => ({
    sessionId,
    incarnation,
    asOfSeq: asOfSeq === null ? null : Number(asOfSeq),
    usageKnown,
  }));
}

/**
 * One keyset page of the ids whose hints or usage hours are unknown, in id order: the WHERE
 * repeats `list_rows_unfolded`'s predicate, so the planner serves it from that partial index.
 */
export async function selectUnfoldedIds(db: pg.Pool, page: ListIdentityPage): Promise<string[]> {
  const result = await db.query<[string]>({
    name: 'strand_list_unfolded_ids',
    text: 'SELECT session_id FROM list_rows WHERE session_id > $1 AND (as_of_seq IS NULL OR usage_as_of IS NULL) ORDER BY session_id LIMIT $2',
    values: [page.after, page.limit],
    rowMode: 'array',
  });
  return result.rows.map(([sessionId]) => sessionId);
}

/** The reconciled marker (reconcile-schema.ts); undefined when none is recorded. */
export async function selectReconciledMarker(db: pg.Pool): Promise<string | undefined> {
  const result = await db.query<{ value: string }>(READ_MARKER);
  return result.rows[0]?.value;
}

/** bigint arrives as text: `Number` is exact for any seq a log can reach. */
function decodeRow([header, incarnation, hints, asOfSeq]: StoredRow): ListIndexRow {
  return {
    header: JSON.parse(header) as ListIndexRow['header'],
    incarnation,
    ...(hints === null || asOfSeq === null
      ? {}
      : { hints: { asOfSeq: Number(asOfSeq), values: JSON.parse(hints) as Record<string, unknown> } }),
  };
}
