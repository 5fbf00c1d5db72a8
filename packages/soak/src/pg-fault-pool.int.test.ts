import { openPostgresPersistence, PostgresPersistence } from '@strand/postgres';
import { createTestDatabase, noPostgres, type TestDatabase } from '@strand/postgres/testing';
import { SessionId, SessionSeq, type SessionEvent } from '@strand/session';
import { testHeader } from '@strand/test-support';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import {
  faultInjectingPool,
  formatPgSchedule,
  parsePgSchedule,
  type ScheduledPgFault,
} from './pg-fault-pool.js';

const id = SessionId('soak-pg');
const title = (seq: number, text: string): SessionEvent => ({
  seq: SessionSeq(seq),
  type: 'session/title',
  time: 1_700_000_000_000 + seq,
  data: { title: text },
});

describe.skipIf(noPostgres)('the fault-injecting pool of the PostgreSQL soak', () => {
  let db: TestDatabase | undefined;
  const closers: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
    await db?.drop();
    db = undefined;
  });

  it('fails the scheduled write statements (refused: nothing stored; cut mid-append: stored or not, never half), and later writes land', async () => {
    db = await createTestDatabase('strand_soak_pool');
    // The schema, as the store opens it; then the persistence over the faulty pool.
    await (await openPostgresPersistence({ url: db.url })).close();
    const pool = new pg.Pool({ connectionString: db.url, max: 2 });
    pool.on('error', () => undefined);
    const struck: ScheduledPgFault[] = [];
    const persistence = new PostgresPersistence(
      faultInjectingPool(pool, parsePgSchedule('statement@2,drop@3'), (fault) => struck.push(fault)),
    );
    closers.push(() => persistence.close());

    await persistence.create({ header: testHeader(id), materialize: true });
    await expect(persistence.append(id, [title(0, 'refused')])).rejects.toMatchObject({
      code: 'PERSISTENCE_IO',
      message: expect.stringContaining('injected by the soak'),
    });
    await expect(persistence.append(id, [title(0, 'cut')])).rejects.toMatchObject({ code: 'PERSISTENCE_IO' });
    expect(formatPgSchedule(struck)).toBe('statement@2,drop@3');
    // The cut statement may have committed before the connection went: the host cannot know which.
    // The server may still be running it when the client has already seen the cut, so its fate is
    // read only once no other backend of this database is left (a read before that could miss a
    // commit that lands after it).
    const watcher = new pg.Client({ connectionString: db.url });
    await watcher.connect();
    closers.push(() => watcher.end());
    await expect
      .poll(
        async () =>
          (
            await watcher.query<{ n: string }>(
              `SELECT count(*) AS n FROM pg_stat_activity
                WHERE datname = current_database() AND pid <> pg_backend_pid() AND state = 'active'`,
            )
          ).rows[0]!.n,
        { timeout: 30_000 },
      )
      .toBe('0');
    const afterCut = (await persistence.inspect(id)).events.map((e) => e.data);
    expect([[], [{ title: 'cut' }]]).toContainEqual(afterCut);
    await persistence.append(id, [title(afterCut.length, 'lands')]);
    expect((await persistence.inspect(id)).events.map((e) => e.data)).toEqual([
      ...afterCut,
      { title: 'lands' },
    ]);
  });

  it('a schedule survives its argv form, and a malformed one is refused', () => {
    const schedule: ScheduledPgFault[] = [
      { kind: 'drop', at: 7 },
      { kind: 'statement', at: 1 },
    ];
    expect(parsePgSchedule(formatPgSchedule(schedule))).toEqual(schedule);
    expect(parsePgSchedule('')).toEqual([]);
    for (const bad of ['drop', 'write@3', 'drop@0', 'statement@2,'])
      expect(() => parsePgSchedule(bad), bad).toThrow(/bad fault/);
  });
});
