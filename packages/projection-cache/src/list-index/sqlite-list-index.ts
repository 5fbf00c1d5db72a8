import type Database from 'better-sqlite3';
import type { ListIdentity, ListIdentityPage, ListIndexStore } from './list-index-store.js';
import {
  listColumnsOf,
  titlePrefixEnd,
  type ListIndexFilter,
  type ListIndexQuery,
  type ListIndexRow,
  type UsageIndexQuery,
  type UsageIndexSession,
} from './list-row.js';
import { SqliteUsageHours } from './sqlite-usage-hours.js';

/** A stored row as SQLite hands it back (raw mode): header JSON, incarnation, hints JSON or null. */
type StoredRow = [header: string, incarnation: string, hints: string | null];

const COLUMNS = 'header, incarnation, hints';

/**
 * Where-clause pieces per filter field, in a fixed order: the statement for a filter's shape is
 * prepared once and reused. `titlePrefix` compares the leading characters exactly (case-sensitive,
 * no LIKE wildcards); how its rows are found is `page`'s choice (`titleRange`).
 */
const FILTER_SQL: readonly {
  readonly field: keyof ListIndexFilter;
  readonly sql: (value: unknown) => string;
}[] = [
  { field: 'cwd', sql: () => 'cwd = @cwd' },
  { field: 'projectName', sql: () => 'project_name = @projectName' },
  { field: 'harness', sql: () => 'harness = @harness' },
  { field: 'parent', sql: (value) => (value === null ? 'parent IS NULL' : 'parent = @parent') },
  { field: 'titlePrefix', sql: () => 'substr(title, 1, length(@titlePrefix)) = @titlePrefix' },
];

/** The title index's range of a prefix's rows (`titlePrefixEnd`), beside the exact comparison. */
const TITLE_RANGE_SQL = 'title >= @titlePrefix AND title < @titlePrefixEnd';

/**
 * A prefix whose rows number fewer than this is read through the title index (those rows, then
 * sorted); one with more, in the list order, keeping the rows that match. Each way's cost grows
 * with the other's best case — the first with the matching rows (a lookup and a sort each), the
 * second with the rows scanned per page (the page size over the share that match) — so they cross
 * near √(page × rows × scan cost ÷ lookup cost): ~5,100 at a million rows, both ~17 ms there. A
 * constant tuned for a million rows (docs/scale.md), not derived from the table's size. Before this choice a prefix matching
 * nothing scanned every row in the list order: 450 ms at a million (issue 41, docs/scale.md).
 */
export const TITLE_RANGE_MAX_ROWS = 5_000;

/**
 * Strictly after the cursor's key in the order (activity descending, then id). The leading
 * `activity_at <= @afterAt` is implied by the rest; it is there so the engine starts the index
 * range at the cursor instead of filtering every row before it (PostgreSQL's planner needs it).
 */
const AFTER_SQL =
  'activity_at <= @afterAt AND (activity_at < @afterAt OR (activity_at = @afterAt AND session_id > @afterId))';

/** The list index in the cache's SQLite database (`list_rows`, created by `prepareSchema`). */
export class SqliteListIndex implements ListIndexStore {
  readonly #db: Database.Database;
  readonly #usage: SqliteUsageHours;
  readonly #upsert: (row: ListIndexRow) => void;
  readonly #upsertBody: (row: ListIndexRow) => void;
  readonly #forget: (sessionId: string) => void;
  readonly #forgetHints: (sessionId: string) => void;
  readonly #forgetHintsBody: (sessionId: string) => void;
  readonly #clear: () => void;
  readonly #identities: Database.Statement<[string, number], [string, string, number | null, number]>;
  readonly #unfolded: Database.Statement<[string, number], string>;
  readonly #readMarker: Database.Statement<[], string>;
  readonly #recordMarker: Database.Statement<[string]>;
  readonly #pages = new Map<string, Database.Statement>();

  readonly #titleRangeMaxRows: number;
  readonly #titleRangeRows: Database.Statement<[string, string, number], number>;

  /** `titleRangeMaxRows`: `TITLE_RANGE_MAX_ROWS` unless a test moves the line. */
  constructor(db: Database.Database, options: { readonly titleRangeMaxRows?: number } = {}) {
    this.#db = db;
    this.#titleRangeMaxRows = options.titleRangeMaxRows ?? TITLE_RANGE_MAX_ROWS;
    // Counts a prefix's rows in the title index, stopping at the line: never more than that read.
    this.#titleRangeRows = db
      .prepare<
        [string, string, number],
        number
      >('SELECT count(*) FROM (SELECT 1 FROM list_rows INDEXED BY list_rows_by_title WHERE title >= ? AND title < ? LIMIT ?)')
      .pluck();
    const usage = (this.#usage = new SqliteUsageHours(db));
    // Another incarnation's row starts with its usage unknown (its hours are dropped in the same step).
    const upsert = db.prepare(
      `INSERT INTO list_rows (session_id, incarnation, header, hints, as_of_seq, activity_at, cwd, project_name, harness, parent, title)
       VALUES (@id, @incarnation, @header, @hints, @asOfSeq, @activityAt, @cwd, @projectName, @harness, @parent, @title)
       ON CONFLICT (session_id) DO UPDATE SET
         incarnation = excluded.incarnation, header = excluded.header, hints = excluded.hints,
         as_of_seq = excluded.as_of_seq, activity_at = excluded.activity_at, cwd = excluded.cwd,
         project_name = excluded.project_name, harness = excluded.harness, parent = excluded.parent, title = excluded.title,
         usage_as_of = CASE WHEN excluded.incarnation <> list_rows.incarnation THEN NULL ELSE list_rows.usage_as_of END
       WHERE excluded.incarnation <> list_rows.incarnation
          OR (excluded.hints IS NOT NULL AND (list_rows.as_of_seq IS NULL OR excluded.as_of_seq >= list_rows.as_of_seq))`,
    );
    this.#upsertBody = (row: ListIndexRow) => {
      upsert.run({
        ...listColumnsOf(row),
        incarnation: row.incarnation,
        header: JSON.stringify(row.header),
        hints: row.hints === undefined ? null : JSON.stringify(row.hints.values),
        asOfSeq: row.hints?.asOfSeq ?? null,
      });
      usage.write(row.header.id, row.incarnation, row.usage);
    };
    this.#upsert = db.transaction(this.#upsertBody);
    const forget = db.prepare<[string]>('DELETE FROM list_rows WHERE session_id = ?');
    this.#forget = db.transaction((sessionId: string) => {
      forget.run(sessionId);
      usage.forget(sessionId);
    });
    const forgetHints = db.prepare<[string]>(
      `UPDATE list_rows SET hints = NULL, as_of_seq = NULL, title = NULL, usage_as_of = NULL,
         activity_at = json_extract(header, '$.createdAt') WHERE session_id = ?`,
    );
    this.#forgetHintsBody = (sessionId: string) => {
      forgetHints.run(sessionId);
      usage.forget(sessionId);
    };
    this.#forgetHints = db.transaction(this.#forgetHintsBody);
    const clear = db.prepare('DELETE FROM list_rows');
    const clearMarker = db.prepare("DELETE FROM list_meta WHERE key = 'reconciled_marker'");
    this.#clear = db.transaction(() => {
      clear.run();
      clearMarker.run();
      usage.clear();
    });
    // The WHERE repeats `list_rows_unfolded`'s, so SQLite serves it from that partial index.
    this.#unfolded = db
      .prepare<[string, number], string>(
        `SELECT session_id FROM list_rows WHERE (as_of_seq IS NULL OR usage_as_of IS NULL) AND session_id > ?
         ORDER BY session_id LIMIT ?`,
      )
      .pluck();
    this.#readMarker = db
      .prepare<[], string>("SELECT value FROM list_meta WHERE key = 'reconciled_marker'")
      .pluck();
    this.#recordMarker = db.prepare<[string]>(
      "INSERT INTO list_meta (key, value) VALUES ('reconciled_marker', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
    );
    this.#identities = db
      .prepare<
        [string, number],
        [string, string, number | null, number]
      >('SELECT session_id, incarnation, as_of_seq, usage_as_of IS NOT NULL FROM list_rows WHERE session_id > ? ORDER BY session_id LIMIT ?')
      .raw(true);
  }

  upsert(row: ListIndexRow): void {
    this.#upsert(row);
  }

  /**
   * `upsert` for a caller already inside a transaction that rolls back when this throws (the row
   * store's write): no nested savepoint, whose sub-journal SQLite keeps in a temporary file.
   */
  upsertWithin(row: ListIndexRow): void {
    this.#upsertBody(row);
  }

  forget(sessionId: string): void {
    this.#forget(sessionId);
  }

  forgetHints(sessionId: string): void {
    this.#forgetHints(sessionId);
  }

  /** `forgetHints` inside the caller's transaction, as `upsertWithin`. */
  forgetHintsWithin(sessionId: string): void {
    this.#forgetHintsBody(sessionId);
  }

  clear(): void {
    this.#clear();
  }

  usage(query: UsageIndexQuery): Promise<readonly UsageIndexSession[]> {
    return Promise.resolve(this.#usage.sessions(query));
  }

  page(query: ListIndexQuery): Promise<readonly ListIndexRow[]> {
    const params: Record<string, unknown> = { limit: query.limit };
    const where: string[] = [];
    for (const { field, sql } of FILTER_SQL) {
      const value = query.filter[field];
      if (value === undefined) continue;
      where.push(sql(value));
      if (value !== null) params[field] = value;
    }
    const byTitle = this.#titleRange(query.filter.titlePrefix);
    if (byTitle !== undefined) {
      where.push(TITLE_RANGE_SQL);
      params.titlePrefixEnd = byTitle;
    }
    if (query.after !== undefined) {
      where.push(AFTER_SQL);
      params.afterAt = query.after.at;
      params.afterId = query.after.id;
    }
    const from = byTitle === undefined ? 'list_rows' : 'list_rows INDEXED BY list_rows_by_title';
    const sql = `SELECT ${COLUMNS}, as_of_seq FROM ${from}${where.length === 0 ? '' : ` WHERE ${where.join(' AND ')}`}
      ORDER BY activity_at DESC, session_id ASC LIMIT @limit`;
    return Promise.resolve(this.#statement(sql).all(params).map(decodeRow));
  }

  /**
   * The upper bound of `prefix`'s title range when its rows are few enough to read through the
   * title index (`TITLE_RANGE_MAX_ROWS`); undefined: read in the list order instead. SQLite's
   * planner has no statistics of the titles to make this choice itself, and picked the list order
   * for every prefix (it stops at the page's end, had the rows been there).
   */
  #titleRange(prefix: string | undefined): string | undefined {
    const end = prefix === undefined ? undefined : titlePrefixEnd(prefix);
    if (prefix === undefined || end === undefined) return undefined;
    const rows = this.#titleRangeRows.get(prefix, end, this.#titleRangeMaxRows)!;
    return rows < this.#titleRangeMaxRows ? end : undefined;
  }

  rows(ids: readonly string[]): Promise<readonly ListIndexRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    const select = this.#statement(
      `SELECT ${COLUMNS}, as_of_seq FROM list_rows WHERE session_id IN (SELECT value FROM json_each(?))`,
    );
    return Promise.resolve(select.all(JSON.stringify(ids)).map(decodeRow));
  }

  identities(page: ListIdentityPage): Promise<readonly ListIdentity[]> {
    return Promise.resolve(
      this.#identities.all(page.after, page.limit).map(([sessionId, incarnation, asOfSeq, usageKnown]) => ({
        sessionId,
        incarnation,
        asOfSeq,
        usageKnown: usageKnown === 1,
      })),
    );
  }

  unfoldedIds(page: ListIdentityPage): Promise<readonly string[]> {
    return Promise.resolve(this.#unfolded.all(page.after, page.limit));
  }

  reconciledMarker(): Promise<string | undefined> {
    return Promise.resolve(this.#readMarker.get());
  }

  /** Written synchronously, after the rows the walk wrote (each committed when its call returned). */
  recordReconciledMarker(marker: string): void {
    this.#recordMarker.run(marker);
  }

  /** One prepared statement per query shape (a handful: one per filter combination). */
  #statement(sql: string): Database.Statement {
    let statement = this.#pages.get(sql);
    if (statement === undefined) {
      statement = this.#db.prepare(sql).raw(true);
      this.#pages.set(sql, statement);
    }
    return statement;
  }
}

function decodeRow(raw: unknown): ListIndexRow {
  const [header, incarnation, hints, asOfSeq] = raw as [...StoredRow, number | null];
  return {
    header: JSON.parse(header) as ListIndexRow['header'],
    incarnation,
    ...(hints === null || asOfSeq === null
      ? {}
      : { hints: { asOfSeq, values: JSON.parse(hints) as Record<string, unknown> } }),
  };
}
