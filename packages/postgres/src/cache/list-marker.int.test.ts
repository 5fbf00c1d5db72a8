import fc from 'fast-check';
import pg from 'pg';
import type { ListIndexRow } from '@strand/projection-cache';
import { recordingLogger } from '@strand/projection-cache/testing';
import { newSessionHeader, SessionId } from '@strand/session';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, noPostgres, sqlOnce, type TestDatabase } from '../testing/index.js';
import { PostgresListIndex } from './postgres-list-index.js';
import { prepareCacheSchema } from './schema.js';
import { WriteBehind } from './write-behind.js';

/*
 * The reconciled marker of the PostgreSQL list index (issue 41; packages/host/README.md,
 * "Reconcile rule"): recorded through the write-behind behind the walk's rows, read by any
 * connection, dropped by `clear` and by any deletion of list rows (another build's too), never
 * recorded past a row that failed to be written; and the unfolded rows paged from their index.
 */

let databases: TestDatabase[] = [];
let pools: pg.Pool[] = [];
afterEach(async () => {
  for (const pool of pools) await pool.end();
  for (const db of databases) await db.drop();
  databases = [];
  pools = [];
});

async function freshDatabase(): Promise<TestDatabase> {
  const db = await createTestDatabase();
  databases.push(db);
  return db;
}

function poolOf(db: TestDatabase): pg.Pool {
  const pool = new pg.Pool({ connectionString: db.url, max: 2 });
  pools.push(pool);
  return pool;
}

/**
 * A list index on its own pool. `failLists` makes the write-behind's statements on `list_rows`
 * fail (the marker's own statement is on `list_meta`), as a dropped connection or a refused row would.
 */
async function openIndex(db: TestDatabase) {
  const pool = poolOf(db);
  await prepareCacheSchema(pool);
  const fault = { failLists: false };
  const faulty = {
    connect: async () => {
      const client = await pool.connect();
      return new Proxy(client, {
        get(target, property) {
          if (property === 'query')
            return (...args: unknown[]) => {
              const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string }).text;
              if (fault.failLists && text?.includes('list_rows') === true)
                return Promise.reject(new Error('injected: list_rows write refused'));
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
  const writes = new WriteBehind(faulty, logger);
  return { index: new PostgresListIndex(pool, writes), writes, fault, logger };
}

const row = (id: string, hints: boolean, usage: boolean): ListIndexRow => ({
  header: newSessionHeader({ id: SessionId(id), createdAt: 1_000 }),
  incarnation: 'i1',
  ...(hints ? { hints: { asOfSeq: 0, values: {} } } : {}),
  ...(usage ? { usage: { asOfSeq: 0, byHour: [] } } : {}),
});

describe.skipIf(noPostgres)('the PostgreSQL list index’s reconciled marker', () => {
  it('is read back by another connection, and dropped by clear, by a forget and by another build’s delete', async () => {
    const db = await freshDatabase();
    const one = await openIndex(db);
    const other = await openIndex(db);
    expect(await one.index.reconciledMarker()).toBeUndefined();
    one.index.upsert(row('a', true, true));
    one.index.upsert(row('b', true, true));
    one.index.recordReconciledMarker('db:1');
    one.index.recordReconciledMarker('db:2');
    await one.writes.drain();
    expect(await other.index.reconciledMarker()).toBe('db:2');

    one.index.forget('a');
    await one.writes.drain();
    expect(await other.index.reconciledMarker()).toBeUndefined();

    one.index.recordReconciledMarker('db:3');
    await one.writes.drain();
    // A delete that deletes nothing changes no row: the marker stays.
    await sqlOnce(db.url, 'DELETE FROM list_rows WHERE session_id = $1', ['not-there']);
    expect(await other.index.reconciledMarker()).toBe('db:3');
    // A build from before the marker empties the index (its `doctor --rebuild-list`).
    await sqlOnce(db.url, 'DELETE FROM list_rows');
    expect(await other.index.reconciledMarker()).toBeUndefined();
    one.index.recordReconciledMarker('db:3t');
    await one.writes.drain();
    // Or truncates it, which fires no delete trigger.
    await sqlOnce(db.url, 'TRUNCATE list_rows');
    expect(await other.index.reconciledMarker()).toBeUndefined();

    one.index.recordReconciledMarker('db:4');
    await one.writes.drain();
    // Nothing left to delete: clear still drops the marker itself.
    other.index.clear();
    await other.writes.drain();
    expect(await one.index.reconciledMarker()).toBeUndefined();

    // A clear queued right behind a record (one write-behind group) still wins.
    one.index.recordReconciledMarker('db:5');
    one.index.clear();
    await one.writes.drain();
    expect(await other.index.reconciledMarker()).toBeUndefined();
    expect(one.logger.entries.filter((entry) => entry.level === 'warn')).toEqual([]);
  });

  it('is not recorded when a row queued since it was read failed to be written', async () => {
    const db = await freshDatabase();
    const host = await openIndex(db);
    const reader = await openIndex(db);
    // The reconcile reads the marker, walks (its rows written behind), records the persistence marker.
    expect(await host.index.reconciledMarker()).toBeUndefined();
    host.fault.failLists = true;
    host.index.upsert(row('lost', false, false));
    host.index.recordReconciledMarker('db:1');
    await host.writes.drain();
    host.fault.failLists = false;
    expect(host.logger.entries.filter((entry) => entry.level === 'warn')).toHaveLength(1);
    expect(await reader.index.rows(['lost'])).toEqual([]);
    // Recorded, the next open would skip the walk that writes the lost row again.
    expect(await reader.index.reconciledMarker()).toBeUndefined();

    // The next walk, without a failure, records it (the earlier failure does not block it forever).
    expect(await host.index.reconciledMarker()).toBeUndefined();
    host.index.upsert(row('lost', false, false));
    host.index.recordReconciledMarker('db:2');
    await host.writes.drain();
    expect((await reader.index.rows(['lost'])).map((r) => r.header.id)).toEqual(['lost']);
    expect(await reader.index.reconciledMarker()).toBe('db:2');
  });

  it('is added once to a database from before it by hosts preparing the schema together', async () => {
    const db = await freshDatabase();
    const before = await openIndex(db);
    before.index.upsert(row('folded', true, true));
    before.index.upsert(row('no-usage', true, false));
    await before.writes.drain();
    // What a version-4 database from before this step holds.
    await sqlOnce(
      db.url,
      `DROP TRIGGER list_rows_drop_marker ON list_rows; DROP FUNCTION list_rows_drop_marker();
       DROP TRIGGER list_rows_truncate_drops_marker ON list_rows; DROP FUNCTION list_rows_truncate_drops_marker();
       DROP INDEX list_rows_unfolded; DROP TABLE list_meta`,
    );
    const openers = Array.from({ length: 4 }, () => poolOf(db));
    await Promise.all(openers.map((pool) => prepareCacheSchema(pool)));
    const triggers = await sqlOnce(
      db.url,
      "SELECT tgname FROM pg_trigger WHERE tgrelid = 'list_rows'::regclass AND NOT tgisinternal ORDER BY tgname",
    );
    expect(triggers.rows).toEqual([
      { tgname: 'list_rows_drop_marker' },
      { tgname: 'list_rows_truncate_drops_marker' },
    ]);
    const after = await openIndex(db);
    expect(await after.index.reconciledMarker()).toBeUndefined();
    expect(await after.index.unfoldedIds({ after: '', limit: 10 })).toEqual(['no-usage']);
    after.index.recordReconciledMarker('db:1');
    await after.writes.drain();
    await sqlOnce(db.url, "DELETE FROM list_rows WHERE session_id = 'folded'");
    expect(await after.index.reconciledMarker()).toBeUndefined();
  });
});

describe.skipIf(noPostgres)('unfoldedIds on PostgreSQL', () => {
  it('pages exactly the rows whose hints or usage are unknown, in id order', async () => {
    const t = await openIndex(await freshDatabase());
    const idArb = fc
      .array(fc.constantFrom('a', 'b', 'B', '-', '0', 'é'), { minLength: 1, maxLength: 4 })
      .map((chars) => chars.join(''));
    const rowsArb = fc.uniqueArray(fc.tuple(idArb, fc.boolean(), fc.boolean()), {
      selector: ([id]) => id,
      maxLength: 25,
    });
    await fc.assert(
      fc.asyncProperty(rowsArb, fc.integer({ min: 1, max: 6 }), async (rows, limit) => {
        t.index.clear();
        for (const [id, hints, usage] of rows) t.index.upsert(row(id, hints, usage));
        await t.writes.drain();
        const paged: string[] = [];
        for (let after = ''; ; ) {
          const page = await t.index.unfoldedIds({ after, limit });
          expect(page.length).toBeLessThanOrEqual(limit);
          paged.push(...page);
          if (page.length < limit) break;
          after = page.at(-1)!;
        }
        const all = await t.index.identities({ after: '', limit: 1_000 });
        expect(paged).toEqual(all.filter((r) => r.asOfSeq === null || !r.usageKnown).map((r) => r.sessionId));
      }),
      { numRuns: 25 },
    );
  });
});
