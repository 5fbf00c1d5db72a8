import pg from 'pg';
import { recordingLogger } from '@strand/projection-cache/testing';
import { newSessionHeader, SessionId } from '@strand/session';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, noPostgres, type TestDatabase } from '../testing/index.js';
import { prepareCacheSchema } from './schema.js';
import { WriteBehind } from './write-behind.js';

/** A list row; a `cwd` with a NUL character is refused by PostgreSQL's text type (a failing change). */
const upsert = (id: string, cwd = '/work') =>
  ({
    kind: 'list-upsert',
    sessionId: id,
    row: { header: newSessionHeader({ id: SessionId(id), createdAt: 1, cwd }), incarnation: 'i1' },
  }) as const;

describe.skipIf(noPostgres)('WriteBehind groups queued changes', () => {
  let db: TestDatabase | undefined;
  let pool: pg.Pool | undefined;
  afterEach(async () => {
    await pool?.end();
    await db?.drop();
  });

  const open = async () => {
    db = await createTestDatabase();
    pool = new pg.Pool({ connectionString: db.url, max: 2 });
    await prepareCacheSchema(pool);
    let connects = 0;
    const counting = { connect: () => (connects++, pool!.connect()) } as unknown as pg.Pool;
    const logger = recordingLogger();
    const ids = async () =>
      (await pool!.query<{ session_id: string }>('SELECT session_id FROM list_rows ORDER BY 1')).rows.map(
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
