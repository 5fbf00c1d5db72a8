import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, noPostgres, type TestDatabase } from '../testing/index.js';
import { selectListPage } from './list-sql.js';
import { prepareCacheSchema } from './schema.js';

/**
 * The plan of a page after a cursor (docs/scale.md): the index range must start at the cursor
 * (`activity_at` in the Index Cond), not filter every row before it — a deep page of a million
 * rows took 1.6 s when it did. Sequential scans are disabled so the planner's choice on a small
 * table is between the index plans only; the query is the one `selectListPage` sends.
 */
describe.skipIf(noPostgres)('list page plan on PostgreSQL', () => {
  let db: TestDatabase | undefined;
  let pool: pg.Pool | undefined;
  afterEach(async () => {
    await pool?.end();
    await db?.drop();
  });

  it.each([{}, { cwd: '/work/a' }, { harness: 'pi' }, { parent: null }])(
    'a page after a cursor starts its index range at the cursor (filter %j)',
    async (filter) => {
      db = await createTestDatabase();
      pool = new pg.Pool({ connectionString: db.url, max: 1 });
      await prepareCacheSchema(pool);
      const sent: { text: string; values: unknown[] }[] = [];
      const recording = {
        query: (query: { text: string; values: unknown[] }) => {
          sent.push(query);
          return pool!.query({ ...query, rowMode: 'array' });
        },
      } as unknown as pg.Pool;
      await selectListPage(recording, { filter, after: { at: 1_700_000_000_000, id: 's-1' }, limit: 200 });
      const client = await pool.connect();
      try {
        await client.query('SET enable_seqscan = off');
        const plan = await client.query<{ 'QUERY PLAN': string }>(
          `EXPLAIN ${sent[0]!.text}`,
          sent[0]!.values,
        );
        const text = plan.rows.map((row) => row['QUERY PLAN']).join('\n');
        expect(text).toMatch(/Index Cond: \(.*activity_at <=/);
      } finally {
        client.release();
      }
    },
  );
});
