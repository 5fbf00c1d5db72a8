import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { eventually, ManualClock } from '@strand/test-support';
import { createTestDatabase, noPostgres, sqlOnce, testPgUrl, type TestDatabase } from '../testing/index.js';
import { CoordinationError } from './errors.js';
import { SessionLeases, type LeaseLoss } from './session-leases.js';

describe.skipIf(noPostgres)('SessionLeases', () => {
  let db: TestDatabase;
  const opened: SessionLeases[] = [];
  // Renewals and this process's view of expiry run on a manual clock: a test moves time, never sleeps.
  // Expiry in the database is on its own clock; tests move it by rewriting `expires_at`.
  const open = async (
    owner: string,
    ttlMs = 15_000,
    renewEveryMs?: number,
    clock = new ManualClock(),
  ): Promise<SessionLeases> => {
    const leases = await SessionLeases.open({
      url: db.url,
      owner,
      ttlMs,
      ...(renewEveryMs === undefined ? {} : { renewEveryMs }),
      reportError: () => undefined,
      clock,
    });
    opened.push(leases);
    return leases;
  };
  const sql = (text: string, values: unknown[] = [], url = db.url): Promise<pg.QueryResult> =>
    sqlOnce(url, text, values);
  const refusal = (promise: Promise<unknown>): Promise<CoordinationError> =>
    promise.then(
      () => {
        throw new Error('expected a refusal');
      },
      (error: unknown) => error as CoordinationError,
    );

  afterEach(async () => {
    for (const leases of opened.splice(0)) await leases.close().catch(() => undefined);
    await db.drop();
  });

  it('refuses a session another live owner holds, naming the owner and the expiry; ownedElsewhere lists it for others only', async () => {
    db = await createTestDatabase();
    const a = await open('host-a');
    const b = await open('host-b');
    const { rows: before } = await sql('SELECT now() AS now');
    await a.acquire('s1');
    const refused = await refusal(b.acquire('s1'));
    expect(refused).toBeInstanceOf(CoordinationError);
    expect(refused.code).toBe('SESSION_OWNED_ELSEWHERE');
    expect(refused.details).toMatchObject({ sessionId: 's1', owner: 'host-a' });
    // The expiry is the database's time of the acquire plus the ttl.
    expect(Date.parse(String(refused.details.expiresAt))).toBeGreaterThanOrEqual(
      (before[0] as { now: Date }).now.getTime() + 15_000,
    );
    expect(refused.message).toMatch(/host-a/);
    expect([...(await b.ownedElsewhere()).entries()]).toEqual([
      ['s1', { owner: 'host-a', expiresAt: expect.any(Date) as Date }],
    ]);
    expect((await a.ownedElsewhere()).size).toBe(0);
    expect(a.holds('s1')).toBe(true);
    expect(b.holds('s1')).toBe(false);
  });

  it('takes a lease although the pooled connection it first used was ended by the server (found by the soak); any other failure still fails the acquire', async () => {
    db = await createTestDatabase();
    const a = await open('host-a');
    // The next statement meets a connection the server ended while it sat idle in the pool: the
    // error pg reports then. Once only: the retry gets a live connection.
    const ended = Object.assign(new Error('terminating connection due to administrator command'), {
      code: '57P01',
    });
    const query = vi.spyOn(pg.Pool.prototype, 'query').mockRejectedValueOnce(ended);
    try {
      await a.acquire('s1');
      expect(a.holds('s1')).toBe(true);
      const { rows } = await sql('SELECT owner FROM strand_session_leases WHERE session_id = $1', ['s1']);
      expect(rows).toEqual([{ owner: 'host-a' }]);
      // The owners listing (session.list) and a release heal the same way.
      const b = await open('host-b');
      query.mockRejectedValueOnce(ended);
      expect([...(await b.ownedElsewhere()).keys()]).toEqual(['s1']);
      query.mockRejectedValueOnce(ended);
      await a.release('s1');
      expect((await sql('SELECT owner FROM strand_session_leases')).rows).toEqual([]);
      // A statement the server refused is not retried: the acquire fails with it.
      const refused = Object.assign(new Error('permission denied'), { code: '42501' });
      query.mockRejectedValueOnce(refused);
      await expect(a.acquire('s2')).rejects.toBe(refused);
      expect(a.holds('s2')).toBe(false);
    } finally {
      query.mockRestore();
    }
  });

  it('only one of two owners racing for the same free session wins', async () => {
    db = await createTestDatabase();
    const a = await open('host-a');
    const b = await open('host-b');
    const outcomes = await Promise.allSettled([a.acquire('race'), b.acquire('race')]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const loser = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
    expect((loser.reason as CoordinationError).code).toBe('SESSION_OWNED_ELSEWHERE');
    const { rows } = await sql('SELECT owner FROM strand_session_leases');
    expect(rows).toHaveLength(1);
  });

  it('counts acquires per session: the lease is deleted only when the last holder releases it', async () => {
    db = await createTestDatabase();
    const a = await open('host-a');
    const b = await open('host-b');
    await a.acquire('s');
    await a.acquire('s');
    await a.release('s');
    expect((await refusal(b.acquire('s'))).code).toBe('SESSION_OWNED_ELSEWHERE');
    await a.release('s');
    expect(a.holds('s')).toBe(false);
    await b.acquire('s');
    expect(b.holds('s')).toBe(true);
  });

  it('renews held leases every renewEveryMs of its clock, so they outlive their ttl', async () => {
    db = await createTestDatabase();
    const clock = new ManualClock();
    const a = await open('host-a', 15_000, 100, clock);
    const b = await open('host-b');
    await a.acquire('kept');
    const expiry = async (): Promise<number> =>
      (
        (await sql('SELECT expires_at FROM strand_session_leases')).rows[0] as { expires_at: Date }
      ).expires_at.getTime();
    // As if most of the ttl had passed on the database clock: the row is about to expire.
    await sql("UPDATE strand_session_leases SET expires_at = now() + interval '50 milliseconds'");
    const due = await expiry();
    clock.advance(99);
    expect(await expiry()).toBe(due); // no renewal before its period
    clock.advance(1); // the timer's tick at 100 ms renews it for another ttl
    await eventually(async () => (await expiry()) !== due, 'the renewal');
    expect(await expiry()).toBeGreaterThan(due);
    expect((await refusal(b.acquire('kept'))).code).toBe('SESSION_OWNED_ELSEWHERE');
    expect(a.holds('kept')).toBe(true);
  });

  it('an expired lease of a dead owner is taken over on the database clock', async () => {
    db = await createTestDatabase();
    const b = await open('host-b', 300);
    // A host that died holding a lease: its row stays until it expires, then anyone may take it.
    await sql("INSERT INTO strand_session_leases VALUES ($1, 'dead-host', now() + interval '1 hour')", [
      'orphan',
    ]);
    expect((await refusal(b.acquire('orphan'))).details.owner).toBe('dead-host');
    await sql("UPDATE strand_session_leases SET expires_at = now() - interval '1 millisecond'");
    await b.acquire('orphan');
    const { rows } = await sql('SELECT owner FROM strand_session_leases WHERE session_id = $1', ['orphan']);
    expect(rows).toEqual([{ owner: 'host-b' }]);
  });

  it('a renewal that finds the lease taken stops renewing it and reports the loss', async () => {
    db = await createTestDatabase();
    const clock = new ManualClock();
    const a = await open('host-a', 600, 100, clock);
    const b = await open('host-b');
    const losses: LeaseLoss[] = [];
    a.onLost((loss) => losses.push(loss));
    await a.acquire('s');
    // As if A stalled past its expiry: B takes the lease over.
    await sql("UPDATE strand_session_leases SET expires_at = now() - interval '1 second'");
    await b.acquire('s');
    expect(losses).toEqual([]);
    clock.advance(100); // A's next renewal round
    await a.renew();
    expect(losses).toEqual([{ sessionId: 's', reason: 'taken' }]);
    expect(a.holds('s')).toBe(false);
    clock.advance(1_000); // no more rounds for a lost lease
    const { rows } = await sql('SELECT owner FROM strand_session_leases');
    expect(rows).toEqual([{ owner: 'host-b' }]); // A's renewals never took it back
    // A's next acquire is an ordinary refused one.
    expect((await refusal(a.acquire('s'))).details.owner).toBe('host-b');
  });

  it('when renewals cannot reach the database, a lease is reported lost once its confirmed ttl has passed, not before', async () => {
    db = await createTestDatabase();
    const clock = new ManualClock();
    const a = await open('host-a', 500, 100, clock);
    const losses: LeaseLoss[] = [];
    a.onLost((loss) => losses.push(loss));
    await a.acquire('s'); // confirmed until 0 + 500 on A's clock
    const name = new URL(db.url).pathname.slice(1);
    // The database becomes unreachable for A: its connections are cut and new ones refused.
    await sql(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`, [], testPgUrl);
    await sql(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND application_name = 'strand-leases'",
      [name],
      testPgUrl,
    );
    try {
      for (let tick = 1; tick <= 4; tick++) {
        clock.advance(100); // a failing round at 100 … 400 ms
        await a.renew();
      }
      expect(losses).toEqual([]);
      expect(a.holds('s')).toBe(true);
      clock.advance(100); // 500 ms: the last confirmed expiry has passed
      await a.renew();
      expect(losses.map((l) => [l.sessionId, l.reason])).toEqual([['s', 'unconfirmed']]);
      expect(a.holds('s')).toBe(false);
    } finally {
      await sql(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`, [], testPgUrl);
    }
  });

  it('close releases every lease of its owner at once', async () => {
    db = await createTestDatabase();
    const a = await open('host-a');
    const b = await open('host-b');
    await a.acquire('x');
    await a.acquire('y');
    await a.close();
    await b.acquire('x');
    await b.acquire('y');
    await expect(a.acquire('z')).rejects.toMatchObject({ code: 'COORDINATION_CLOSED' });
  });

  it('refuses an out-of-range ttl or renewal period with a typed error', async () => {
    db = await createTestDatabase();
    await expect(SessionLeases.open({ url: db.url, ttlMs: 50 })).rejects.toMatchObject({
      code: 'COORDINATION_CONFIG_INVALID',
    });
    await expect(SessionLeases.open({ url: db.url, ttlMs: 1000, renewEveryMs: 1000 })).rejects.toMatchObject({
      code: 'COORDINATION_CONFIG_INVALID',
    });
  });
});
