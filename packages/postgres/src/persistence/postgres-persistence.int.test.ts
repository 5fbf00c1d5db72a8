import fc from 'fast-check';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { isPersistenceError } from '@strand/persistence';
import { SessionSeq, type Session, type SessionEventInput } from '@strand/session';
import {
  closedTurn,
  crashedTurn,
  createWritingSession,
  persistenceContract,
  testHeader,
  writingSession,
} from '@strand/test-support';
import { createTestDatabase, noPostgres } from '../testing/index.js';
import { persistenceHosts } from '../testing/persistence-hosts.js';
import { parseAppendNotice } from './append-notice.js';
import { openPostgresPersistence } from './open-postgres-persistence.js';
import type { PostgresPersistence } from './postgres-persistence.js';
import { PERSISTENCE_SCHEMA_VERSION } from './schema.js';

const open = (url: string): Promise<PostgresPersistence> => openPostgresPersistence({ url, poolSize: 2 });

describe.skipIf(noPostgres)('PostgreSQL persistence', () => {
  persistenceContract('postgres', async () => {
    const db = await createTestDatabase();
    let current = await open(db.url);
    return {
      persistence: current,
      reopen: async () => {
        await current.close();
        current = await open(db.url);
        return current;
      },
      dispose: async () => {
        await current.close();
        await db.drop();
      },
    };
  });

  describe('PostgreSQL session store', () => {
    const { host, url, listenAppends } = persistenceHosts(open);

    async function raw<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
      const client = new pg.Client({ connectionString: url() });
      await client.connect();
      try {
        return (await client.query<T>(text, values)).rows;
      } finally {
        await client.end();
      }
    }

    /** The stored log of `id` re-opened as a writing session on host `p` (a second writer). */
    async function secondWriter(p: PostgresPersistence, id: Session['id']): Promise<Session> {
      const stored = await p.inspect(id);
      return writingSession(p, stored.header, stored.incarnation, { events: stored.events });
    }

    it('lets exactly one of two hosts appending the same next seq win; the other gets PERSISTENCE_SEQ_CONFLICT and nothing interleaves', async () => {
      const a = await host();
      const b = await host();
      const first = await createWritingSession(a, testHeader('contended'));
      await first.append(closedTurn('opening'));
      for (let round = 0; round < 5; round++) {
        const writers = [await secondWriter(a, first.id), await secondWriter(b, first.id)];
        const outcomes = await Promise.allSettled(
          writers.map((w, i) => w.append(closedTurn(`round ${round} from host ${i}`))),
        );
        const won = outcomes.flatMap((o, i) => (o.status === 'fulfilled' ? [writers[i]!] : []));
        const lost = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as Error] : []));
        expect(won).toHaveLength(1);
        expect(lost).toHaveLength(1);
        expect(lost[0]!.cause).toMatchObject({ name: 'PersistenceError', code: 'PERSISTENCE_SEQ_CONFLICT' });
        expect((lost[0]!.cause as Error).message).toMatch(/expected \d+, got \d+/);
        const stored = await b.inspect(first.id);
        expect(stored.events).toEqual(won[0]!.events);
      }
      const rows = await raw<{ first_seq: number; count: number }>(
        'SELECT first_seq, count FROM strand_event_batches ORDER BY first_seq',
      );
      expect(rows.map((r) => r.first_seq)).toEqual([0, 11, 22, 33, 44, 55]);
    });

    it('refuses the second host to store a lazily created id with PERSISTENCE_EXISTS', async () => {
      const a = await host();
      const b = await host();
      const header = testHeader('created-twice');
      const onA = await createWritingSession(a, header);
      const onB = await createWritingSession(b, header);
      await onA.append(closedTurn('a was first'));
      const failure = (await onB.append(closedTurn('b was late')).catch((e: unknown) => e)) as Error;
      expect(failure.cause).toMatchObject({ code: 'PERSISTENCE_EXISTS' });
      expect((await b.inspect(header.id)).events).toEqual(onA.events);
    });

    it('notifies one exact payload per committed append, none for a refused one, and the notice parses back', async () => {
      const p = await host();
      const { payloads, received } = await listenAppends();

      const session = await createWritingSession(p, testHeader('announced'));
      const expected: string[] = [];
      for (const prompt of ['first write creates the row', 'second write advances it']) {
        const from = session.events.length;
        await session.append(closedTurn(prompt));
        const revision = (await p.revisionOf(session.id))!;
        expected.push(
          JSON.stringify({ id: session.id, incarnation: session.incarnation, from, count: 11, revision }),
        );
      }
      const stale = writingSession(p, session.header, session.incarnation!, {
        events: session.events.slice(0, 11),
      });
      await expect(stale.append(closedTurn('stale'))).rejects.toThrow();
      await received();
      expect(payloads).toEqual(expected);
      expect(parseAppendNotice(payloads[1]!)).toEqual({
        id: session.id,
        incarnation: session.incarnation,
        from: 11,
        count: 11,
        revision: await p.revisionOf(session.id),
      });
      expect(() => parseAppendNotice('{"id":"x"}')).toThrow(
        expect.objectContaining({ code: 'PERSISTENCE_FORMAT_UNSUPPORTED' }),
      );
    });

    it('refuses a database whose persistence schema is newer with PERSISTENCE_FORMAT_UNSUPPORTED', async () => {
      const p = await host();
      await p.close();
      await raw("UPDATE strand_schema SET version = $1 WHERE component = 'persistence'", [
        PERSISTENCE_SCHEMA_VERSION + 1,
      ]);
      const refused: unknown = await open(url()).catch((e: unknown) => e);
      expect(refused).toMatchObject({ name: 'PersistenceError', code: 'PERSISTENCE_FORMAT_UNSUPPORTED' });
      expect((refused as Error).message).toMatch(
        new RegExp(`version ${PERSISTENCE_SCHEMA_VERSION + 1}.*up to ${PERSISTENCE_SCHEMA_VERSION}`),
      );
    });

    it('moves the change marker with the creates and deletes of another host', async () => {
      const a = await host();
      const b = await host();
      const before = await a.changeMarker();
      expect(before).toMatch(/^[0-9a-f]{32}:0$/);
      expect(await b.changeMarker()).toBe(before);
      await (await createWritingSession(b, testHeader('by-b'))).append(closedTurn('from b'));
      const afterCreate = await a.changeMarker();
      expect(afterCreate).not.toBe(before);
      await b.delete(testHeader('by-b').id);
      expect(await a.changeMarker()).not.toBe(afterCreate);
    });

    it('gives a version-1 database the change marker at open (migration 2), keeping its sessions', async () => {
      const p = await host();
      await (await createWritingSession(p, testHeader('old'))).append(closedTurn('before the marker'));
      await p.close();
      // What a version-1 database holds: the sessions, no marker objects.
      await raw(`DROP TRIGGER strand_sessions_stored_or_deleted ON strand_sessions;
        DROP TRIGGER strand_sessions_reincarnated ON strand_sessions;
        DROP FUNCTION strand_count_session_change(); DROP TABLE strand_session_changes;
        UPDATE strand_schema SET version = 1 WHERE component = 'persistence';`);
      const upgraded = await open(url());
      try {
        const before = await upgraded.changeMarker();
        expect(before).toMatch(/:0$/);
        expect((await upgraded.list()).map((s) => s.header.id)).toEqual(['old']);
        await upgraded.delete(testHeader('old').id);
        expect(await upgraded.changeMarker()).not.toBe(before);
        const [version] = await raw<{ version: number }>(
          "SELECT version FROM strand_schema WHERE component = 'persistence'",
        );
        expect(version!.version).toBe(PERSISTENCE_SCHEMA_VERSION);
      } finally {
        await upgraded.close();
      }
    });

    it('coalesces appends issued while a write is in flight into fewer transactions, in order', async () => {
      const p = await host();
      const session = await createWritingSession(p, testHeader('grouped'));
      await session.append(closedTurn('first'));
      const appends = Array.from({ length: 10 }, (_, i) =>
        session.append({ type: 'session/title', data: { title: `title ${i}` } }),
      );
      await Promise.all(appends);
      expect((await p.inspect(session.id)).events).toEqual(session.events);
      const [counted] = await raw<{ rows: number }>('SELECT count(*)::int AS rows FROM strand_event_batches');
      expect(counted!.rows).toBeLessThan(11);
    });

    it('splits a large write into bounded rows that read back whole and by suffix', async () => {
      const p = await host();
      const session = await createWritingSession(p, testHeader('bulk'));
      const bulk: SessionEventInput[] = Array.from({ length: 2500 }, (_, i) => ({
        type: 'x-test/bulk',
        data: { i },
      }));
      await session.append(bulk);
      const rows = await raw<{ count: number }>('SELECT count FROM strand_event_batches ORDER BY first_seq');
      expect(rows.length).toBeGreaterThan(1);
      expect(rows.reduce((n, r) => n + r.count, 0)).toBe(2500);
      expect((await p.inspect(session.id)).events).toEqual(session.events);
      expect((await p.readFrom(session.id, SessionSeq(1500))).events).toEqual(session.events.slice(1500));
    });

    it('readFrom at any seq equals the suffix of inspect, whatever the append batch sizes (property)', async () => {
      const p = await host();
      let runs = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.oneof(
              { weight: 9, arbitrary: fc.integer({ min: 1, max: 40 }) },
              { weight: 1, arbitrary: fc.integer({ min: 1000, max: 1500 }) },
            ),
            { minLength: 1, maxLength: 12 },
          ),
          fc.array(fc.nat(), { minLength: 1, maxLength: 6 }),
          async (sizes, picks) => {
            const session = await createWritingSession(p, testHeader(`batches-${runs++}`));
            for (const size of sizes) {
              await session.append(
                Array.from({ length: size }, (_, i) => ({ type: 'x-test/n', data: { size, i } })),
              );
            }
            const whole = await p.inspect(session.id);
            for (const pick of picks) {
              const from = pick % (whole.events.length + 2);
              const suffix = await p.readFrom(session.id, SessionSeq(from));
              expect(suffix.events).toEqual(whole.events.slice(from));
              expect(suffix.cursor).toBe(whole.events.length);
            }
          },
        ),
        { numRuns: 12 },
      );
    });

    it('writes repair closers from another host through the guarded path', async () => {
      const a = await host();
      const b = await host();
      const session = await createWritingSession(a, testHeader('crashed'));
      await session.append(closedTurn('fine'));
      await session.append(crashedTurn('boom', ['c1']));
      const inspected = await b.inspect(session.id);
      const loaded = await b.load(session.id);
      expect(loaded.events).toEqual([...inspected.events, ...inspected.repairs]);
      expect((await a.inspect(session.id)).events).toEqual(loaded.events);
      expect(await a.revisionOf(session.id)).toBe(loaded.revision);
    });

    it('reports a damaged or missing batch row as PERSISTENCE_CORRUPT naming the session and seq', async () => {
      const p = await host();
      const session = await createWritingSession(p, testHeader('damaged'));
      for (const prompt of ['a', 'b', 'c']) await session.append(closedTurn(prompt));
      await raw(`UPDATE strand_event_batches SET lines = '{"broken' || chr(10) WHERE first_seq = 11`);
      await expect(p.inspect(session.id)).rejects.toMatchObject({
        code: 'PERSISTENCE_CORRUPT',
        sessionId: session.id,
        location: { seq: 11 },
      });
      // A suffix read after the damage never reads it.
      expect((await p.readFrom(session.id, SessionSeq(22))).events).toEqual(session.events.slice(22));
      await raw('DELETE FROM strand_event_batches WHERE first_seq = 11');
      await expect(p.inspect(session.id)).rejects.toThrow(/seq gap: expected 11, got 22/);
      await raw('DELETE FROM strand_event_batches WHERE first_seq = 22');
      await expect(p.readFrom(session.id, SessionSeq(25))).rejects.toMatchObject({
        code: 'PERSISTENCE_CORRUPT',
        location: { seq: 25 },
      });
    });

    it('maps a failing server write to PERSISTENCE_IO with its cause and leaves the log as before', async () => {
      const p = await host();
      const session = await createWritingSession(p, testHeader('refused'));
      await session.append(closedTurn('kept'));
      const before = await p.inspect(session.id);
      await raw(`CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$
                 BEGIN RAISE EXCEPTION 'disk says no'; END $$;
                 CREATE TRIGGER refuse BEFORE INSERT ON strand_event_batches FOR EACH ROW EXECUTE FUNCTION refuse();`);
      const failure = (await session.append(closedTurn('lost')).catch((e: unknown) => e)) as Error;
      expect(failure.cause).toMatchObject({
        code: 'PERSISTENCE_IO',
        cause: expect.objectContaining({ code: 'P0001' }),
      });
      const after = await p.inspect(session.id);
      expect(after.events).toEqual(before.events);
      expect(after.revision).toBe(before.revision);
    });

    it('fails with PERSISTENCE_IO, not an untyped error, when the server is unreachable', async () => {
      const url = new URL(process.env.STRAND_TEST_PG_URL!);
      url.port = '1';
      const refused: unknown = await open(url.toString()).catch((e: unknown) => e);
      expect(isPersistenceError(refused, 'PERSISTENCE_IO')).toBe(true);
      expect((refused as Error).cause).toBeDefined();
    });
  });
});
