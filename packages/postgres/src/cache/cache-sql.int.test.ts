import pg from 'pg';
import { recordingLogger } from '@strand/projection-cache/testing';
import { listProjectNameOf } from '@strand/projection-cache';
import { newSessionHeader, SessionId } from '@strand/session';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, noPostgres, type TestDatabase } from '../testing/index.js';
import { prepareCacheSchema } from './schema.js';
import { selectListPage } from './list-sql.js';
import { WriteBehind } from './write-behind.js';

/** A list row; a `cwd` with a NUL character is refused by PostgreSQL's text type (a failing change). */
const upsert = (id: string, cwd = '/work') =>
  ({
    kind: 'list-upsert',
    sessionId: id,
    row: { header: newSessionHeader({ id: SessionId(id), createdAt: 1, cwd }), incarnation: 'i1' },
  }) as const;

let opened: { db: TestDatabase; pool: pg.Pool }[] = [];
afterEach(async () => {
  for (const { db, pool } of opened) {
    await pool.end();
    await db.drop();
  }
  opened = [];
});

/** A fresh database with the cache schema, and a pool over it (closed and dropped after the test). */
async function openSchemaPool(): Promise<pg.Pool> {
  const db = await createTestDatabase();
  const pool = new pg.Pool({ connectionString: db.url, max: 2 });
  opened.push({ db, pool });
  await prepareCacheSchema(pool);
  return pool;
}

describe.skipIf(noPostgres)('WriteBehind groups queued changes', () => {
  const open = async () => {
    const pool = await openSchemaPool();
    let connects = 0;
    const counting = { connect: () => (connects++, pool.connect()) } as unknown as pg.Pool;
    const logger = recordingLogger();
    const ids = async () =>
      (await pool.query<{ session_id: string }>('SELECT session_id FROM list_rows ORDER BY 1')).rows.map(
        (row) => row.session_id,
      );
    return { writes: new WriteBehind(counting, logger), logger, ids, connects: () => connects };
  };

  it('a burst queued at once is one transaction', async () => {
    const t = await open();
    const burst = Array.from({ length: 50 }, (_, i) => `s-${String(i).padStart(2, '0')}`);
    for (const id of burst) t.writes.enqueue(upsert(id));
    await t.writes.drain();
    expect(await t.ids()).toEqual(burst);
    expect(t.connects()).toBe(1);
    expect(t.writes.pending).toEqual([]);
  });

  it('one failing change in a group costs only itself: the others are written, it is reported once', async () => {
    const t = await open();
    t.writes.enqueue(upsert('a'));
    t.writes.enqueue(upsert('b', 'bad\u0000cwd'));
    t.writes.enqueue(upsert('c'));
    await t.writes.drain();
    expect(await t.ids()).toEqual(['a', 'c']);
    expect(
      t.logger.entries.filter((entry) => entry.level === 'warn').map((entry) => entry.fields.sessionId),
    ).toEqual(['b']);
    expect(t.writes.pending).toEqual([]);
  });
});

/**
 * The plan of a page after a cursor (docs/scale.md): the index range must start at the cursor
 * (`activity_at` in the Index Cond), not filter every row before it — a deep page of a million
 * rows took 1.6 s when it did. Sequential scans are disabled so the planner's choice on a small
 * table is between the index plans only; the query is the one `selectListPage` sends.
 */
describe.skipIf(noPostgres)('list page plan on PostgreSQL', () => {
  it.each([{}, { cwd: '/work/a' }, { projectName: 'a' }, { harness: 'pi' }, { parent: null }])(
    'a page after a cursor starts its index range at the cursor (filter %j)',
    async (filter) => {
      const pool = await openSchemaPool();
      const sent: { text: string; values: unknown[] }[] = [];
      const recording = {
        query: (query: { text: string; values: unknown[] }) => {
          sent.push(query);
          return pool.query({ ...query, rowMode: 'array' });
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

/**
 * Schema step 4 fills `project_name` of the rows a version-3 database holds with the SQL form of
 * `listProjectNameOf`; the rule written twice must agree on every kind of path.
 */
describe.skipIf(noPostgres)('project name migration on PostgreSQL', () => {
  it('a version-3 database gets each row’s project name from its cwd, as listProjectNameOf gives it', async () => {
    const pool = await openSchemaPool();
    const cwds = [
      '/home/dev/strand',
      '/home/dev/strand//',
      'C:\\src\\web\\',
      'rel',
      '/',
      'a/b\\c',
      '/ünï/cödé/',
    ];
    const writes = new WriteBehind(pool, recordingLogger());
    cwds.forEach((cwd, i) => writes.enqueue(upsert(`s-${i}`, cwd)));
    writes.enqueue({
      kind: 'list-upsert',
      sessionId: 'no-cwd',
      row: { header: newSessionHeader({ id: SessionId('no-cwd'), createdAt: 1 }), incarnation: 'i1' },
    });
    await writes.drain();
    await pool.query('ALTER TABLE list_rows DROP COLUMN project_name');
    await pool.query("UPDATE strand_schema SET version = 3 WHERE component = 'projection-cache'");
    await prepareCacheSchema(pool);
    const stored = await pool.query<{ session_id: string; project_name: string | null }>(
      'SELECT session_id, project_name FROM list_rows ORDER BY session_id',
    );
    expect(Object.fromEntries(stored.rows.map((row) => [row.session_id, row.project_name]))).toEqual({
      ...Object.fromEntries(cwds.map((cwd, i) => [`s-${i}`, listProjectNameOf(cwd)])),
      'no-cwd': null,
    });
    // And the filter reads the column the migration filled.
    const page = await selectListPage(pool, { filter: { projectName: 'strand' }, limit: 10 });
    expect(page.map((row) => row.header.id).sort()).toEqual(['s-0', 's-1']);
  });
});
