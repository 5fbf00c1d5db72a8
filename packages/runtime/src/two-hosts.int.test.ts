import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isPersistenceError } from '@strand/persistence';
import { PostgresProjectionCache } from '@strand/postgres';
import { createTestDatabase, noPostgres, testPgUrl, type TestDatabase } from '@strand/postgres/testing';
import type { FollowSnapshot, SessionListRow, WireEvent } from '@strand/protocol';
import {
  SessionId,
  SessionSeq,
  newSessionHeader,
  silentLogger,
  type Logger,
  type SessionEvent,
} from '@strand/session';
import { RpcTestClient } from './testing/host-fixture.js';
import { startHost, type RunningHost } from '@strand/host';
import { openStrandRuntime, type StrandRuntime } from './strand-runtime.js';
import { eventually } from '@strand/test-support';

interface TestHost {
  readonly runtime: StrandRuntime;
  readonly host: RunningHost;
  readonly client: RpcTestClient;
}

const holderScript = path.join(path.dirname(fileURLToPath(import.meta.url)), 'test', 'lease-holder.child.ts');

describe.skipIf(noPostgres)('two hosts sharing one PostgreSQL database', () => {
  let db: TestDatabase;
  const hosts: TestHost[] = [];
  const roots: string[] = [];
  const children: ChildProcess[] = [];

  afterEach(async () => {
    for (const child of children.splice(0)) child.kill('SIGKILL');
    for (const { runtime, host, client } of hosts.splice(0)) {
      client.close();
      await host.close();
      await runtime.close();
    }
    for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
    await db.drop();
  });

  const dataDir = (): string => {
    const root = mkdtempSync(path.join(tmpdir(), 'strand-two-hosts-'));
    roots.push(root);
    return root;
  };
  const openHost = async (leaseTtlMs?: number, logger?: Logger): Promise<TestHost> => {
    const runtime = await openStrandRuntime({
      dataDir: dataDir(),
      store: db.url,
      syncSearch: false,
      ...(leaseTtlMs === undefined ? {} : { leaseTtlMs }),
      ...(logger === undefined ? {} : { logger }),
    });
    const host = await startHost({ services: runtime.services });
    const client = await RpcTestClient.open(host.rpcUrl);
    const opened = { runtime, host, client };
    hosts.push(opened);
    return opened;
  };
  /** Until a host's list rows (written behind) are committed, where the other host lists them. */
  const committed = async ({ runtime }: TestHost): Promise<void> => {
    const cache = runtime.services.cache;
    if (!(cache instanceof PostgresProjectionCache)) throw new Error('not a PostgreSQL host');
    await cache.drain();
  };
  const rowOf = async (client: RpcTestClient, id: string): Promise<SessionListRow | undefined> =>
    (await client.call<{ sessions: SessionListRow[] }>('session.list')).sessions.find((row) => row.id === id);
  const admin = async (text: string, values: unknown[] = []): Promise<void> => {
    const client = new pg.Client({ connectionString: testPgUrl });
    await client.connect();
    try {
      await client.query(text, values);
    } finally {
      await client.end();
    }
  };
  const leaseExpiry = async (id: string): Promise<number | undefined> => {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ expires_at: Date }>(
        'SELECT expires_at FROM strand_session_leases WHERE session_id = $1',
        [id],
      );
      return rows[0]?.expires_at.getTime();
    } finally {
      await client.end();
    }
  };
  const databaseNow = async (): Promise<number> => {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      return (await client.query<{ now: Date }>('SELECT now() AS now')).rows[0]!.now.getTime();
    } finally {
      await client.end();
    }
  };

  it('finds a session by its title on PostgreSQL: the title match ranks first and results carry the title', async () => {
    db = await createTestDatabase();
    const a = await openHost();
    const b = await openHost();
    const titled = await a.runtime.agents.create({ cwd: '/tmp/a' });
    await titled.agent.prompt('nothing relevant here');
    const renamed = await a.client.call<{ seq: number }>('session.rename', {
      id: titled.agent.id,
      title: 'Refactor the lexer',
    });
    const busy = await a.runtime.agents.create({ cwd: '/tmp/a' });
    await busy.agent.prompt('refactor this, refactor that');
    // Its title (from its first prompt) would match too: renamed, it matches by its events only.
    await a.client.call('session.rename', { id: busy.agent.id, title: 'Chores' });
    // B indexes what A wrote (the shared index lives in the database), then searches on A.
    await b.runtime.search.sync({
      persistence: b.runtime.services.persistence,
      live: b.runtime.services.store,
    });
    type Page = { results: { sessionId: string; title: string | null; hits: { seq: number }[] }[] };
    const page = await a.client.call<Page>('session.search', { query: 'refactor' });
    expect(page.results.map((r) => [r.sessionId, r.title])).toEqual([
      [titled.agent.id, 'Refactor the lexer'],
      [busy.agent.id, 'Chores'],
    ]);
    // The title hit is the `session/title` event.
    expect(page.results[0]!.hits[0]!.seq).toBe(renamed.seq);
  });

  it('B lists A’s session as owned elsewhere (one lease query per list) while A runs its agent, refuses B’s writes with a typed error, and frees it when A’s agent detaches', async () => {
    db = await createTestDatabase();
    const a = await openHost();
    const b = await openHost();
    const lease = await a.runtime.agents.create({ cwd: '/tmp/a' });
    await lease.agent.prompt('hello from host A');
    const id = lease.agent.id;
    await committed(a);

    const leaseQueries = vi.spyOn(b.runtime.coordination!.leases, 'ownedElsewhere');
    expect(await rowOf(b.client, id)).toMatchObject({ id, live: false, busy: true, ownedElsewhere: true });
    expect(leaseQueries).toHaveBeenCalledTimes(1);
    const onA = await rowOf(a.client, id);
    expect(onA).toMatchObject({ live: true, busy: false });
    expect(onA).not.toHaveProperty('ownedElsewhere');

    for (const [method, params] of [
      ['session.prompt', { id, text: 'from host B' }],
      ['session.rename', { id, title: 'renamed on B' }],
    ] as const) {
      const refused = await b.client.request(method, params);
      expect(refused.error).toMatchObject({
        code: -32060,
        data: { code: 'SESSION_OWNED_ELSEWHERE', sessionId: id, owner: a.runtime.coordination!.leases.owner },
      });
    }
    expect(b.runtime.services.store.size).toBe(0);

    lease.release();
    await a.runtime.agents.whenSettled();
    const freed = await rowOf(b.client, id);
    expect(freed).toMatchObject({ live: false, busy: false });
    expect(freed).not.toHaveProperty('ownedElsewhere');
    await b.client.call('session.prompt', { id, text: 'now host B works on it' });
    await eventually(() => b.runtime.agents.agent(id) === undefined);
    // The detach gives the lease back after the agent left the map: A may list it once that is done.
    await b.runtime.agents.whenSettled();
    const stored = (await b.runtime.services.persistence.inspect(id)).events;
    const prompts = stored
      .filter((e) => e.type === 'user/message')
      .map((e) => (e.data as { content: string }).content);
    expect(prompts).toEqual(['hello from host A', 'now host B works on it']);
    expect(await rowOf(a.client, id)).not.toHaveProperty('ownedElsewhere');
  });

  it('a follower on B receives A’s appends in order with no gap, as event and projection frames, and repairs by seq after its feed connection is killed', async () => {
    db = await createTestDatabase();
    const a = await openHost();
    // Each failure B's append feed contains (a dropped connection, a refused reconnect), in order.
    let feedFailures = 0;
    const b = await openHost(undefined, {
      ...silentLogger,
      error: (message) => void (message.startsWith('append feed') && feedFailures++),
    });
    const lease = await a.runtime.agents.create({ cwd: '/tmp/a' });
    await lease.agent.prompt('the first turn');
    const id = lease.agent.id;
    const snapshot = await b.client.call<FollowSnapshot>('session.follow', { id });
    expect(snapshot.live).toBe(false);
    const received = (): WireEvent[] =>
      b.client.frames
        .filter((m) => m.method === 'follow.events')
        .flatMap((m) => (m.params as { followId: string; events: WireEvent[] }).events);
    const caughtUp = (): boolean => received().at(-1)?.seq === lease.agent.session.events.length - 1;

    for (let n = 0; n < 3; n++) await lease.agent.prompt(`turn number ${n}`);
    await eventually(caughtUp);
    const expected = (): unknown[] =>
      JSON.parse(JSON.stringify(lease.agent.session.events.slice(snapshot.cursor))) as unknown[];
    expect(received()).toEqual(expected());
    // Projection values changed by A's turns arrive as ordinary frames (clients never fold).
    const usage = b.client.frames.filter(
      (m) => m.method === 'follow.projection' && (m.params as { key: string }).key === 'usage',
    );
    expect(usage.at(-1)?.params).toMatchObject({
      followId: snapshot.followId,
      generation: snapshot.generation,
      value: a.runtime.services.registry.snapshot(lease.agent.session, ['usage']).values.usage,
    });

    // B goes deaf: its feed connection is killed and cannot come back while A keeps writing.
    const feed = b.runtime.coordination!.feed;
    const name = new URL(db.url).pathname.slice(1);
    await admin(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
    try {
      await admin('SELECT pg_terminate_backend($1)', [feed.backendPid]);
      await eventually(() => !feed.connected);
      await lease.agent.prompt('written while B was not listening');
      // B's feed is refused a reconnect after the write, so it was not listening when the write
      // was announced; a round trip then brings every frame B sent before it.
      const failures = feedFailures;
      await eventually(() => feedFailures > failures, 'a reconnect of B’s feed refused after the write');
      await b.client.call('catalog.models');
      expect(caughtUp()).toBe(false); // the announcements were missed…
    } finally {
      await admin(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
    }
    await eventually(caughtUp); // …and the reconnect's resync read the gap by seq
    expect(feed.connected).toBe(true);
    expect(received()).toEqual(expected());
    expect(b.client.frames.some((m) => m.method === 'follow.resync')).toBe(false);
    lease.release();
  });

  it('two writers racing on one session: exactly one wins each race, the loser gets PERSISTENCE_SEQ_CONFLICT, and the stored log never interleaves', async () => {
    db = await createTestDatabase();
    const a = await openHost();
    const b = await openHost();
    const id = SessionId('contended');
    const header = newSessionHeader({ id, createdAt: 1_000 });
    await a.runtime.services.persistence.create({ header });
    const batch = (writer: string, n: number, from: number): SessionEvent[] =>
      [0, 1, 2].map((part) => ({
        type: 'x/write',
        seq: SessionSeq(from + part),
        time: 1_000 + from + part,
        data: { writer, batch: n, part },
      }));
    await a.runtime.services.persistence.append(id, batch('a', 0, 0));

    // One deterministic race: both writers saw the same next seq.
    const outcomes = await Promise.allSettled([
      a.runtime.services.persistence.append(id, batch('a', 1, 3)),
      b.runtime.services.persistence.append(id, batch('b', 1, 3)),
    ]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const loser = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected')!;
    expect(isPersistenceError(loser.reason, 'PERSISTENCE_SEQ_CONFLICT')).toBe(true);

    // Then free-running writers that retry after every conflict.
    let conflicts = 1;
    const writer = async (name: 'a' | 'b', host: TestHost): Promise<void> => {
      const { persistence } = host.runtime.services;
      for (let n = 2; n < 12; ) {
        const { cursor } = await persistence.readFrom(id, SessionSeq(0));
        try {
          await persistence.append(id, batch(name, n, cursor));
          n++;
        } catch (error) {
          if (!isPersistenceError(error, 'PERSISTENCE_SEQ_CONFLICT')) throw error;
          conflicts++;
        }
      }
    };
    await Promise.all([writer('a', a), writer('b', b)]);

    const { events } = await b.runtime.services.persistence.inspect(id);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i));
    expect(events).toHaveLength(3 * (1 + 1 + 20));
    for (let i = 0; i < events.length; i += 3) {
      const [first, second, third] = events
        .slice(i, i + 3)
        .map((e) => e.data as { writer: string; batch: number; part: number });
      expect([second, third]).toEqual([
        { ...first, part: 1 },
        { ...first, part: 2 },
      ]);
      expect(first!.part).toBe(0);
    }
    expect(conflicts).toBeGreaterThanOrEqual(1);
  });

  it('a host whose lease was taken over (it stalled past the ttl) stops its agent at its next renewal', async () => {
    db = await createTestDatabase();
    const a = await openHost();
    const b = await openHost();
    const lease = await a.runtime.agents.create({ cwd: '/tmp/a' });
    await lease.agent.prompt('started on A');
    const id = lease.agent.id;
    // As if A had stalled past its expiry: B may take the session.
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      await client.query("UPDATE strand_session_leases SET expires_at = now() - interval '1 second'");
    } finally {
      await client.end();
    }
    await b.client.call('session.prompt', { id, text: 'B took over' });
    await a.runtime.coordination!.leases.renew();
    await eventually(() => !lease.agent.attached);
    expect(a.runtime.services.store.has(id)).toBe(false);
    expect(a.runtime.coordination!.leases.holds(id)).toBe(false);
    // A's own client no longer sees the session live here.
    expect((await rowOf(a.client, id))?.live).toBe(false);
    lease.release();
  });

  it('a killed host loses its lease after the ttl: B is refused until then, then takes the session over and runs an agent on it', async () => {
    db = await createTestDatabase();
    const b = await openHost(1_000);
    const child = spawn(process.execPath, ['--import', 'tsx', holderScript, dataDir(), db.url, '1000'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const [id, owner] = await new Promise<[string, string]>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const ready = /ready (\S+) (\S+)\n/.exec(out);
        if (ready !== null) resolve([ready[1]!, ready[2]!]);
      });
      child.once('exit', (code) =>
        reject(new Error(`host A exited (${code}) before it was ready: ${stderr}`)),
      );
    });
    // Alive: its lease is renewed past the expiry it was first granted.
    const granted = (await leaseExpiry(id))!;
    await eventually(async () => ((await leaseExpiry(id)) ?? 0) > granted);
    expect(await rowOf(b.client, id)).toMatchObject({ ownedElsewhere: true, busy: true });
    expect((await b.client.request('session.prompt', { id, text: 'too early' })).error?.data).toMatchObject({
      code: 'SESSION_OWNED_ELSEWHERE',
      owner,
    });

    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    // Dead, but its lease outlives it until the expiry.
    expect(
      (await b.client.request('session.prompt', { id, text: 'still too early' })).error?.data,
    ).toMatchObject({
      code: 'SESSION_OWNED_ELSEWHERE',
    });
    // Nobody renews a dead host's lease: its last expiry stands, on the database clock.
    const lastExpiry = (await leaseExpiry(id))!;
    await eventually(
      async () =>
        (await b.client.request('session.prompt', { id, text: 'taken over by B' })).error === undefined,
    );
    expect(await databaseNow()).toBeGreaterThanOrEqual(lastExpiry);
    await eventually(() => b.runtime.agents.agent(SessionId(id)) === undefined);
    const stored = (await b.runtime.services.persistence.inspect(SessionId(id))).events;
    const prompts = stored
      .filter((e) => e.type === 'user/message')
      .map((e) => (e.data as { content: string }).content);
    expect(prompts).toEqual(['work started on host A', 'taken over by B']);
    const takeover = stored.findIndex(
      (e) => e.type === 'user/message' && (e.data as { content: string }).content === 'taken over by B',
    );
    expect(
      stored
        .slice(takeover)
        .some((e) => e.type === 'turn/end' && (e.data as { reason: string }).reason === 'completed'),
    ).toBe(true);
    // B's agent settled and gave the lease back: nobody owns the session now.
    expect(await rowOf(b.client, id)).toMatchObject({ live: false, busy: false });
    expect((await b.runtime.coordination!.leases.ownedElsewhere()).size).toBe(0);
  });
});
