import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { persistenceWriter } from '@strand/persistence';
import { Session, SessionId, newSessionHeader } from '@strand/session';
import { eventually } from '@strand/test-support';
import { APPENDS_CHANNEL, openPostgresPersistence, type PostgresPersistence } from '../persistence/index.js';
import { createTestDatabase, noPostgres, type TestDatabase } from '../testing/index.js';
import { AppendFeed, type AppendFeedSignal } from './append-feed.js';

describe.skipIf(noPostgres)('AppendFeed', () => {
  let db: TestDatabase;
  let persistence: PostgresPersistence | undefined;
  let feed: AppendFeed | undefined;
  afterEach(async () => {
    await feed?.close();
    await persistence?.close();
    feed = undefined;
    persistence = undefined;
    await db.drop();
  });

  const session = async (id: string): Promise<Session> => {
    const header = newSessionHeader({ id: SessionId(id), createdAt: 1_000 });
    const { incarnation } = await persistence!.create({ header });
    return new Session({ header, incarnation, writer: persistenceWriter(persistence!, header.id) });
  };
  const collect = (id: string): { signals: AppendFeedSignal[]; next(count: number): Promise<void> } => {
    const signals: AppendFeedSignal[] = [];
    feed!.subscribe(id, (signal) => signals.push(signal));
    return {
      signals,
      next: (count) => eventually(() => signals.length >= count, `${count} signals for ${id}`),
    };
  };

  it('delivers every committed append to the subscribers of its session only, in commit order', async () => {
    db = await createTestDatabase();
    persistence = await openPostgresPersistence({ url: db.url });
    feed = await AppendFeed.open({ url: db.url, reportError: () => undefined });
    const one = collect('one');
    const other = collect('other');
    const s = await session('one');
    await s.append({ type: 'session/title', data: { title: 'a' } });
    await s.append([
      { type: 'turn/start', data: {} },
      { type: 'turn/end', data: { reason: 'completed' } },
    ]);
    await one.next(2);
    expect(
      one.signals.map((signal) => signal.kind === 'append' && [signal.notice.from, signal.notice.count]),
    ).toEqual([
      [0, 1],
      [1, 2],
    ]);
    const first = one.signals[0]!;
    expect(first.kind === 'append' && first.notice.incarnation).toBe(s.incarnation);
    expect(other.signals).toEqual([]);
  });

  it('after its connection is terminated it reconnects, tells subscribers to resync, and delivers again', async () => {
    db = await createTestDatabase();
    persistence = await openPostgresPersistence({ url: db.url });
    feed = await AppendFeed.open({
      url: db.url,
      reconnectMs: { initial: 20, max: 200 },
      reportError: () => undefined,
    });
    const watched = collect('watched');
    const s = await session('watched');
    const killed = feed.backendPid;
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    try {
      await admin.query('SELECT pg_terminate_backend($1)', [killed]);
    } finally {
      await admin.end();
    }
    await watched.next(1);
    expect(watched.signals[0]).toEqual({ kind: 'resync' });
    expect(feed.connected).toBe(true);
    expect(feed.backendPid).not.toBe(killed);
    await s.append({ type: 'session/title', data: { title: 'after the reconnect' } });
    await watched.next(2);
    expect(watched.signals[1]).toMatchObject({
      kind: 'append',
      notice: { id: 'watched', from: 0, count: 1 },
    });
  });

  it('reports an unreadable notice (a foreign sender) and delivers nothing for it', async () => {
    db = await createTestDatabase();
    const reported: unknown[] = [];
    feed = await AppendFeed.open({ url: db.url, reportError: (error) => reported.push(error) });
    const watched = collect('x');
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    try {
      await admin.query('SELECT pg_notify($1, $2)', [APPENDS_CHANNEL, '{"id":"x","from":"zero"}']);
      await admin.query('SELECT pg_notify($1, $2)', [
        APPENDS_CHANNEL,
        '{"id":"x","incarnation":"i","from":3,"count":1,"revision":"r"}',
      ]);
    } finally {
      await admin.end();
    }
    await watched.next(1);
    expect(watched.signals).toEqual([
      { kind: 'append', notice: { id: 'x', incarnation: 'i', from: 3, count: 1, revision: 'r' } },
    ]);
    expect(reported).toHaveLength(1);
    expect(reported[0]).toMatchObject({ code: 'PERSISTENCE_FORMAT_UNSUPPORTED' });
  });
});
