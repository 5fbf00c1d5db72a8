import type Database from 'better-sqlite3';
import type { ListRowUsage, UsageIndexQuery, UsageIndexSession } from './list-row.js';
import { USAGE_COLUMNS, usageSessionsOf, type UsageQueryRow } from './usage-rows.js';

/** Filters of the session (`list_rows`, alias l) and of its hours (joined, alias u), by field. */
const SESSION_SQL = {
  cwd: 'l.cwd = @cwd',
  harness: 'l.harness = @harness',
  ids: 'l.session_id IN (SELECT value FROM json_each(@ids))',
} as const;
const HOUR_SQL = { since: 'u.hour >= @since', until: 'u.hour < @until' } as const;

/**
 * `usage_hours` beside `list_rows` (list-index/usage-schema.ts): written inside the list index's
 * upsert transaction, read by one joined query per filter shape.
 */
export class SqliteUsageHours {
  readonly #db: Database.Database;
  readonly #claim: Database.Statement;
  readonly #dropHours: Database.Statement<[string]>;
  readonly #dropStale: Database.Statement<[{ id: string }]>;
  readonly #insert: Database.Statement;
  readonly #queries = new Map<string, Database.Statement>();

  constructor(db: Database.Database) {
    this.#db = db;
    // Usage is written only onto the row of its own incarnation, and never back to an older cut.
    this.#claim = db.prepare(
      `UPDATE list_rows SET usage_as_of = @asOfSeq
       WHERE session_id = @id AND incarnation = @incarnation AND (usage_as_of IS NULL OR usage_as_of <= @asOfSeq)`,
    );
    this.#dropHours = db.prepare('DELETE FROM usage_hours WHERE session_id = ?');
    // Hours whose row no longer vouches for them (another incarnation replaced it, hints forgotten).
    this.#dropStale = db.prepare(
      `DELETE FROM usage_hours WHERE session_id = @id
         AND NOT EXISTS (SELECT 1 FROM list_rows WHERE session_id = @id AND usage_as_of IS NOT NULL)`,
    );
    this.#insert = db.prepare(
      `INSERT INTO usage_hours (session_id, hour, provider, model, long_context, input, output,
         cache_creation, cache_read, reasoning, reported_usd)
       VALUES (@id, @hour, @provider, @model, @longContext, @input, @output, @cacheCreation,
         @cacheRead, @reasoning, @reportedUsd)`,
    );
  }

  /** After the list row's upsert, in its transaction: drops stale hours, then writes `usage` if it is the newest. */
  write(id: string, incarnation: string, usage: ListRowUsage | undefined): void {
    this.#dropStale.run({ id });
    if (usage === undefined) return;
    if (this.#claim.run({ id, incarnation, asOfSeq: usage.asOfSeq }).changes === 0) return;
    this.#dropHours.run(id);
    for (const entry of usage.byHour ?? [])
      this.#insert.run({
        id,
        hour: entry.hour,
        provider: entry.provider,
        model: entry.model,
        longContext: entry.longContext ? 1 : 0,
        input: entry.input,
        output: entry.output,
        cacheCreation: entry.cacheCreation,
        cacheRead: entry.cacheRead,
        reasoning: entry.reasoning,
        reportedUsd: entry.reportedUsd ?? null,
      });
  }

  /** Drops a session's hours (its row was dropped, or its hints forgotten). */
  forget(id: string): void {
    this.#dropHours.run(id);
  }

  clear(): void {
    this.#db.exec('DELETE FROM usage_hours');
  }

  /**
   * Every session matching the query whose usage is known, with its hours inside the bounds (none:
   * an empty list) — one query; a session whose usage is unknown is absent.
   */
  sessions(query: UsageIndexQuery): readonly UsageIndexSession[] {
    const params: Record<string, unknown> = {};
    const where = ['l.usage_as_of IS NOT NULL'];
    const on = ['u.session_id = l.session_id'];
    for (const field of ['cwd', 'harness', 'ids'] as const) {
      const value = query[field];
      if (value === undefined) continue;
      where.push(SESSION_SQL[field]);
      params[field] = typeof value === 'string' ? value : JSON.stringify(value);
    }
    for (const field of ['since', 'until'] as const) {
      const value = query[field];
      if (value === undefined) continue;
      on.push(HOUR_SQL[field]);
      params[field] = value;
    }
    const sql = `SELECT ${USAGE_COLUMNS}
      FROM list_rows l LEFT JOIN usage_hours u ON ${on.join(' AND ')}
      WHERE ${where.join(' AND ')} ORDER BY l.session_id, u.hour`;
    return usageSessionsOf(this.#statement(sql).all(params) as UsageQueryRow[]);
  }

  #statement(sql: string): Database.Statement {
    let statement = this.#queries.get(sql);
    if (statement === undefined) {
      statement = this.#db.prepare(sql).raw(true);
      this.#queries.set(sql, statement);
    }
    return statement;
  }
}
