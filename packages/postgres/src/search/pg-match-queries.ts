import type pg from 'pg';
import {
  FACT_COLUMNS,
  facetConditions,
  factsOfColumns,
  type FactColumns,
  type IndexedFacets,
  type MatchRow,
  type FiledFacts,
} from '@strand/search/kit';
import type { SessionId } from '@strand/session';
import { BUCKET_SQL, bucketOf, bucketSqlOf, bucketStart } from './search-buckets.js';

/*
 * Read-side statements over `search_events`; `$1` is always the query's tsquery (as text, from
 * `tsquerySql`). Relevance is `ts_rank_cd` (cover density: more occurrences, closer together, rank
 * higher), negated into the engine-neutral cost (lower is better).
 */

interface RawMatch {
  readonly sid: string;
  readonly seq: string;
  readonly rank: number;
}

const toMatch = (raw: RawMatch): MatchRow => [Number(raw.sid), Number(raw.seq), -raw.rank];

/**
 * The sessions a facet filter keeps, as a condition on `column` (a sid), its values bound from
 * `$first`: only the filter's narrowing fields appear, so each uses its index. Unfiltered: none.
 */
function facetCondition(column: string, filter: IndexedFacets | undefined, first: number): string {
  if (filter === undefined) return '';
  const where = facetConditions(filter).map((condition, i) => `s.${condition.column} = $${first + i}`);
  return ` AND ${column} IN (SELECT s.sid FROM search_sessions s WHERE ${where.join(' AND ')})`;
}

/** The filter's values in the order `facetCondition` binds them. */
function facetValues(filter: IndexedFacets | undefined): string[] {
  return filter === undefined ? [] : facetConditions(filter).map(({ value }) => value);
}

// Each step reads the newest matching rows of one bucket of sessions (`search-buckets.ts`) below
// the upper sid; the rank is computed only for the rows kept, not for every match.
const bucketSql = (filter: IndexedFacets | undefined): string => `
SELECT w.sid, w.seq, ts_rank_cd(w.tsv, $1::tsquery)::float8 AS rank
FROM (
  SELECT sid, seq, tsv FROM search_events
  WHERE ${BUCKET_SQL} = $4 AND tsv @@ $1::tsquery AND ($2::bigint IS NULL OR sid < $2)${facetCondition('sid', filter, 5)}
  ORDER BY sid DESC, seq DESC LIMIT $3
) w
ORDER BY w.sid DESC, w.seq DESC`;

// The rest at once, below a bucket: for a query too rare to fill buckets one by one, where the
// bitmap of its few matches is the cheap plan. `sid + 0` keeps the planner from walking the primary
// key backwards instead (its estimate of a text match's rows is far too high for a rare word).
const belowSql = (filter: IndexedFacets | undefined): string => `
SELECT w.sid, w.seq, ts_rank_cd(w.tsv, $1::tsquery)::float8 AS rank
FROM (
  SELECT sid, seq, tsv FROM search_events
  WHERE tsv @@ $1::tsquery AND sid < $2${facetCondition('sid', filter, 4)}
  ORDER BY sid + 0 DESC, seq DESC LIMIT $3
) w
ORDER BY w.sid DESC, w.seq DESC`;

/** Buckets read one at a time before a query that found too few rows in them reads the rest at once. */
const BUCKETS_BEFORE_REST = 4;

/**
 * The next `size` matching rows of sessions with `sid < upperSid` (all sessions for `null`),
 * newest first; with a filter, only rows of sessions filed under its facets. The same rows as one
 * `ORDER BY sid DESC, seq DESC LIMIT size` over every match, read bucket by bucket from the newest:
 * a common word fills the window from its first bucket or two. A query that has found fewer than
 * an eighth of the window after `BUCKETS_BEFORE_REST` buckets is rare: the rest is read at once.
 */
export async function matchWindow(
  client: pg.ClientBase,
  tsquery: string,
  upperSid: number | null,
  size: number,
  filter?: IndexedFacets,
): Promise<MatchRow[]> {
  if (tsquery === '') return []; // every term was punctuation: nothing can match
  const top =
    upperSid === null
      ? Number(
          (await client.query<{ top: string | null }>('SELECT max(sid) AS top FROM search_sessions')).rows[0]
            ?.top ?? Number.NaN,
        )
      : upperSid - 1;
  if (!Number.isSafeInteger(top) || top < 1) return [];
  const out: MatchRow[] = [];
  for (let bucket = bucketOf(top), read = 0; bucket >= 0 && out.length < size; bucket--, read++) {
    if (read >= BUCKETS_BEFORE_REST && out.length < size / 8) {
      const { rows } = await client.query<RawMatch>(belowSql(filter), [
        tsquery,
        bucketStart(bucket + 1),
        size - out.length,
        ...facetValues(filter),
      ]);
      out.push(...rows.map(toMatch));
      break;
    }
    const { rows } = await client.query<RawMatch>(bucketSql(filter), [
      tsquery,
      upperSid,
      size - out.length,
      bucket,
      ...facetValues(filter),
    ]);
    out.push(...rows.map(toMatch));
  }
  return out;
}

/**
 * Each session's best `limit` matching rows, in one statement: for a result shown by its label,
 * and as the fallback when a snapshot's hits no longer match. The bucket is given with the sid,
 * so the text index is read for that bucket only (a common word's entries over every bucket cost
 * milliseconds a session), or the planner takes the session's rows by primary key.
 */
export async function sessionsHits(
  client: pg.ClientBase,
  tsquery: string,
  sids: readonly number[],
  limit: number,
): Promise<Map<number, MatchRow[]>> {
  const out = new Map<number, MatchRow[]>();
  if (tsquery === '' || sids.length === 0 || limit <= 0) return out;
  const { rows } = await client.query<RawMatch>(
    `SELECT k.sid, h.seq, h.rank FROM unnest($2::bigint[]) AS k (sid)
     CROSS JOIN LATERAL (
       SELECT seq, ts_rank_cd(tsv, $1::tsquery)::float8 AS rank FROM search_events
       WHERE ${BUCKET_SQL} = ${bucketSqlOf('k.sid')} AND sid = k.sid AND tsv @@ $1::tsquery
       ORDER BY rank DESC, seq LIMIT $3
     ) h
     ORDER BY k.sid, h.rank DESC, h.seq`,
    [tsquery, sids, limit],
  );
  for (const row of rows.map(toMatch)) {
    const hits = out.get(row[0]);
    if (hits === undefined) out.set(row[0], [row]);
    else hits.push(row);
  }
  return out;
}

export interface StoredText {
  readonly text: string;
  /** Whether the row still matches the query (it may have been re-indexed since it was ranked). */
  readonly matches: boolean;
}

/** The stored text of the given events, keyed `sid:seq`; events without a row are absent. */
export async function storedTexts(
  client: pg.ClientBase,
  tsquery: string,
  keys: readonly (readonly [sid: number, seq: number])[],
): Promise<Map<string, StoredText>> {
  const out = new Map<string, StoredText>();
  if (keys.length === 0) return out;
  const { rows } = await client.query<{ sid: string; seq: string; text: string; matches: boolean }>(
    `SELECT e.sid, e.seq, e.text, e.tsv @@ $1::tsquery AS matches
     FROM unnest($2::bigint[], $3::bigint[]) AS k (sid, seq)
     JOIN search_events e ON e.sid = k.sid AND e.seq = k.seq`,
    [tsquery, keys.map(([sid]) => sid), keys.map(([, seq]) => seq)],
  );
  for (const row of rows) out.set(textKey(Number(row.sid), Number(row.seq)), row);
  return out;
}

export const textKey = (sid: number, seq: number): string => `${sid}:${seq}`;

/** A result's session: its id and the facts it is filed under. */
export interface DescribedSession {
  readonly sessionId: SessionId;
  readonly facts: FiledFacts;
}

/** The sessions of the given keys, to describe results; keys no longer indexed are absent. */
export async function describedSessions(
  client: pg.ClientBase,
  sids: readonly number[],
): Promise<Map<number, DescribedSession>> {
  const out = new Map<number, DescribedSession>();
  if (sids.length === 0) return out;
  const { rows } = await client.query<FactColumns & { sid: string; session_id: string }>(
    `SELECT sid, session_id, ${FACT_COLUMNS} FROM search_sessions WHERE sid = ANY($1::bigint[])`,
    [sids],
  );
  for (const row of rows)
    out.set(Number(row.sid), { sessionId: row.session_id as SessionId, facts: factsOfColumns(row) });
  return out;
}

// Only a session's current label counts (its label row with the largest seq): a renamed session is
// not found by its old title; and only if the session set it itself (a fork's inherited label is
// shown, but a match on it is its parent's). Best first, newer sessions first on ties (as on SQLite).
const labelsSql = (filter: IndexedFacets | undefined): string => `
SELECT l.sid, l.seq, ts_rank_cd(l.tsv, $1::tsquery)::float8 AS rank
FROM search_labels l
WHERE l.tsv @@ $1::tsquery AND l.seq = (SELECT max(m.seq) FROM search_labels m WHERE m.sid = l.sid)
  AND l.seq >= (SELECT s.own_from FROM search_sessions s WHERE s.sid = l.sid)${facetCondition('l.sid', filter, 3)}
ORDER BY rank DESC, l.sid DESC LIMIT $2`;

/**
 * Sessions whose current label matches, best first: at most `limit` rows `[sid, label seq, cost]`;
 * with a filter, only sessions filed under its facets.
 */
export async function labelMatches(
  client: pg.ClientBase,
  tsquery: string,
  limit: number,
  filter?: IndexedFacets,
): Promise<MatchRow[]> {
  if (tsquery === '') return [];
  const { rows } = await client.query<RawMatch>(labelsSql(filter), [tsquery, limit, ...facetValues(filter)]);
  return rows.map(toMatch);
}

export interface StoredLabel {
  /** The session's current label; `''` when its last label event cleared it. */
  readonly text: string;
  /** The event that set it. */
  readonly seq: number;
  /** Whether it matches the query, and the session set it itself (not inherited as a fork). */
  readonly matches: boolean;
}

/** The current label of each given session that has one (a row), keyed by sid. */
export async function currentLabels(
  client: pg.ClientBase,
  tsquery: string,
  sids: readonly number[],
): Promise<Map<number, StoredLabel>> {
  const out = new Map<number, StoredLabel>();
  if (sids.length === 0) return out;
  // An empty tsquery (every term was punctuation) matches nothing; '' is not a valid tsquery cast.
  const { rows } = await client.query<{ sid: string; seq: string; text: string; matches: boolean }>(
    `SELECT DISTINCT ON (l.sid) l.sid, l.seq, l.text,
       ($1::text <> '' AND l.tsv @@ NULLIF($1, '')::tsquery AND l.seq >= s.own_from) AS matches
     FROM search_labels l JOIN search_sessions s ON s.sid = l.sid
     WHERE l.sid = ANY($2::bigint[]) ORDER BY l.sid, l.seq DESC`,
    [tsquery, sids],
  );
  for (const row of rows)
    out.set(Number(row.sid), { text: row.text, seq: Number(row.seq), matches: row.matches === true });
  return out;
}
