import fc from 'fast-check';
import pg from 'pg';
import type { HourUsage } from '@strand/projection';
import {
  SqliteCacheRowStore,
  type ListIndexRow,
  type ListIndexStore,
  type UsageIndexSession,
} from '@strand/projection-cache';
import { recordingLogger } from '@strand/projection-cache/testing';
import { newSessionHeader, SessionId } from '@strand/session';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, noPostgres, type TestDatabase } from '../testing/index.js';
import type { ListChange } from './list-sql.js';
import { PostgresListIndex } from './postgres-list-index.js';
import { prepareCacheSchema } from './schema.js';
import { WriteBehind } from './write-behind.js';

/*
 * The list index's write-behind in batches (issue 41): a rebuild's burst of list rows costs a few
 * statements per batch, not about six per row, and the batched writes leave exactly the rows and
 * usage hours the SQLite engine (one row at a time) leaves for the same changes.
 */

let opened: { db: TestDatabase; pool: pg.Pool }[] = [];
afterEach(async () => {
  for (const { db, pool } of opened) {
    await pool.end();
    await db.drop();
  }
  opened = [];
});

/** A fresh database with the cache schema; `statements()` counts the queries the write-behind sent. */
async function openCounted() {
  const db = await createTestDatabase();
  const pool = new pg.Pool({ connectionString: db.url, max: 2 });
  opened.push({ db, pool });
  await prepareCacheSchema(pool);
  let statements = 0;
  const counting = {
    connect: async () => {
      const client = await pool.connect();
      return new Proxy(client, {
        get(target, property) {
          if (property === 'query')
            return (...args: unknown[]) => {
              statements++;
              return (target.query as (...a: unknown[]) => unknown)(...args);
            };
          const value = Reflect.get(target, property) as unknown;
          return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        },
      });
    },
    query: pool.query.bind(pool),
  } as unknown as pg.Pool;
  const logger = recordingLogger();
  const writes = new WriteBehind(counting, logger);
  const index = new PostgresListIndex(pool, writes);
  return { writes, index, logger, statements: () => statements };
}

const hour = (at: number, model: string, input: number): HourUsage => ({
  hour: at * 3_600_000,
  provider: 'anthropic',
  model,
  longContext: false,
  input,
  output: 2 * input,
  cacheCreation: 0,
  cacheRead: input,
  reasoning: 0,
});

const row = (
  id: string,
  incarnation: string,
  cut: number | undefined,
  usage?: { asOfSeq: number; byHour: HourUsage[] | null },
): ListIndexRow => ({
  header: newSessionHeader({
    id: SessionId(id),
    createdAt: 1_700_000_000_000 + id.length,
    cwd: `/work/${id.slice(-1)}`,
  }),
  incarnation,
  ...(cut === undefined
    ? {}
    : { hints: { asOfSeq: cut, values: { title: `t ${id} ${cut}`, listMetadata: { lastPromptAt: cut } } } }),
  ...(usage === undefined ? {} : { usage }),
});

/** Every row and every session's usage, in one order, from either engine. */
async function contents(index: ListIndexStore, ids: readonly string[]) {
  const rows = [...(await index.rows(ids))].sort((a, b) => (a.header.id < b.header.id ? -1 : 1));
  const byKey = (h: HourUsage) => JSON.stringify([h.hour, h.model, h.input]);
  const usage = [...(await index.usage({}))]
    .map((s: UsageIndexSession) => ({
      ...s,
      byHour: [...s.byHour].sort((a, b) => (byKey(a) < byKey(b) ? -1 : 1)),
    }))
    .sort((a, b) => (a.id < b.id ? -1 : 1));
  return { rows, usage };
}

describe.skipIf(noPostgres)('the list index written behind in batches on PostgreSQL', () => {
  it('a rebuild of 1,200 rows with usage takes a few statements per 500 rows, not several per row', async () => {
    const t = await openCounted();
    const ids = Array.from({ length: 1_200 }, (_, i) => `s-${String(i).padStart(4, '0')}`);
    // What `strand doctor --rebuild-list` enqueues: a clear, then every session's row.
    t.index.clear();
    for (const [i, id] of ids.entries())
      t.index.upsert(row(id, 'i1', i, { asOfSeq: i, byHour: i % 3 === 0 ? null : [hour(i, 'm', i + 1)] }));
    await t.writes.drain();
    // Three groups (500 + 500 + 200 changes), each BEGIN, one lock statement, the upsert, the stale
    // hours, the claimed hours, COMMIT (and the clear's two). One row at a time was ≥ 5 per row.
    expect(t.statements()).toBeLessThanOrEqual(3 * 6 + 2);
    const { rows, usage } = await contents(t.index, ids);
    expect(rows.map((r) => r.header.id)).toEqual(ids);
    expect(rows[7]).toEqual(row('s-0007', 'i1', 7));
    expect(usage).toHaveLength(ids.length);
    expect(usage.find((s) => s.id === 's-0007')?.byHour).toEqual([hour(7, 'm', 8)]);
    expect(usage.find((s) => s.id === 's-0006')?.byHour).toEqual([]);
    expect(t.logger.entries.filter((entry) => entry.level === 'warn')).toEqual([]);
  });

  it('batched writes leave the rows and hours the SQLite engine leaves, one change at a time', async () => {
    const t = await openCounted();
    const ids = ['a', 'b', 'c', 'd'];
    const usageArb = fc.option(
      fc.record({
        asOfSeq: fc.integer({ min: 0, max: 6 }),
        byHour: fc.option(
          fc.uniqueArray(
            fc.tuple(
              fc.integer({ min: 0, max: 3 }),
              fc.constantFrom('m1', 'm2'),
              fc.integer({ min: 1, max: 9 }),
            ),
            { maxLength: 3, selector: ([at, model]) => `${at}:${model}` },
          ),
          { nil: null },
        ),
      }),
      { nil: undefined },
    );
    const changeArb: fc.Arbitrary<ListChange> = fc.oneof(
      {
        weight: 6,
        arbitrary: fc
          .record({
            id: fc.constantFrom(...ids),
            incarnation: fc.constantFrom('i1', 'i2'),
            cut: fc.option(fc.integer({ min: 0, max: 6 }), { nil: undefined }),
            usage: usageArb,
          })
          .map(({ id, incarnation, cut, usage }) => ({
            kind: 'list-upsert' as const,
            sessionId: id,
            row: row(
              id,
              incarnation,
              cut,
              usage === undefined
                ? undefined
                : {
                    asOfSeq: usage.asOfSeq,
                    byHour: usage.byHour?.map(([at, model, input]) => hour(at, model, input)) ?? null,
                  },
            ),
          })),
      },
      {
        weight: 1,
        arbitrary: fc.record({
          kind: fc.constantFrom('list-forget' as const, 'list-forget-hints' as const),
          sessionId: fc.constantFrom(...ids),
        }),
      },
      { weight: 1, arbitrary: fc.constant({ kind: 'list-clear' as const }) },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(changeArb, { maxLength: 40 }), async (changes) => {
        const sqlite = SqliteCacheRowStore.open(':memory:');
        try {
          t.index.clear();
          for (const change of changes) {
            // Enqueued back to back: the write-behind takes them as one group, cut into runs.
            t.writes.enqueue(change);
            if (change.kind === 'list-upsert') sqlite.listIndex.upsert(change.row);
            else if (change.kind === 'list-forget') sqlite.listIndex.forget(change.sessionId);
            else if (change.kind === 'list-forget-hints') sqlite.listIndex.forgetHints(change.sessionId);
            else sqlite.listIndex.clear();
          }
          await t.writes.drain();
          expect(await contents(t.index, ids)).toEqual(await contents(sqlite.listIndex, ids));
        } finally {
          sqlite.close();
        }
      }),
      { numRuns: 25 },
    );
    expect(t.logger.entries.filter((entry) => entry.level === 'warn')).toEqual([]);
  });
});
