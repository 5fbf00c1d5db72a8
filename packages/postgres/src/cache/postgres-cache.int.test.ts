import { BUILT_IN_UNITS, ProjectionRegistry } from '@strand/projection';
import {
  header,
  listIndexContract,
  projectionCacheContract,
  recordingLogger,
  subject,
  turnEvents as events,
  type OpenCacheUnderTest,
  type RecordingLogger,
} from '@strand/projection-cache/testing';
import { SessionLogOffset } from '@strand/session';
import { eventually } from '@strand/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, noPostgres, sqlOnce as sql, type TestDatabase } from '../testing/index.js';
import { LISTENER_APPLICATION_NAME } from './notice-listener.js';
import {
  openPostgresProjectionCache,
  type OpenPostgresProjectionCacheOptions,
  type PostgresProjectionCache,
} from './postgres-cache.js';
import { CACHE_CHANNEL, CACHE_SCHEMA_VERSION } from './schema.js';

/** The usage view of a log without usage records. */
const NO_TOKENS = { input: 0, output: 0, cacheCreation: 0, cacheRead: 0, reasoning: 0 };
const NO_USAGE = { own: NO_TOKENS, inherited: NO_TOKENS, byModel: [], byHour: [] };

const cut0 = SessionLogOffset(0);

const postgresCache: OpenCacheUnderTest = async ({ registry, logger }) => {
  const db = await createTestDatabase();
  let cache = await openPostgresProjectionCache({ url: db.url, registry, logger });
  const reopen = async () => {
    await cache.closeAsync();
    cache = await openPostgresProjectionCache({ url: db.url, registry, logger });
    return cache;
  };
  return {
    get cache() {
      return cache;
    },
    settle: () => cache.drain(),
    reopen,
    async overwriteState(sessionId, key, stateText) {
      await cache.drain();
      await sql(db.url, 'UPDATE projection_cache_rows SET state = $1 WHERE session_id = $2 AND key = $3', [
        stateText,
        sessionId,
        key,
      ]);
      // A fresh instance reads it at open; the notice path is tested on its own below.
      return reopen();
    },
    async dispose() {
      await cache.closeAsync();
      await db.drop();
    },
  };
};

describe.skipIf(noPostgres)('projection cache on PostgreSQL', () => {
  projectionCacheContract('PostgreSQL', postgresCache);
  listIndexContract('PostgreSQL', postgresCache);

  describe('several hosts on one database', () => {
    let db: TestDatabase | undefined;
    const opened: PostgresProjectionCache[] = [];
    const registry = new ProjectionRegistry({ units: BUILT_IN_UNITS });
    const rows = (upTo = events.length) => registry.foldAll(header(), events.slice(0, upTo)).rows;

    async function host(
      logger: RecordingLogger = recordingLogger(),
      options: Partial<OpenPostgresProjectionCacheOptions> = {},
    ): Promise<PostgresProjectionCache> {
      db ??= await createTestDatabase();
      const cache = await openPostgresProjectionCache({ url: db.url, registry, logger, ...options });
      opened.push(cache);
      return cache;
    }

    afterEach(async () => {
      await Promise.all(opened.splice(0).map((cache) => cache.closeAsync()));
      await db?.drop();
      db = undefined;
    });

    it("serves host A's put and forget on host B once B has the notice", async () => {
      const a = await host();
      const b = await host();
      await b.prefetch(['s1']); // held (as having no rows): only a notice can change it now
      expect(b.cachedSnapshot(subject(), cut0)).toBeUndefined();
      a.put(subject(), cut0, rows());
      await eventually(() => b.cachedSnapshot(subject(), cut0, ['title']) !== undefined, 'B serves the row');
      expect(b.cachedSnapshot(subject(), cut0, ['title'])).toEqual({
        asOfSeq: 3,
        values: { title: 'Hello' },
      });
      a.forget(header().id);
      await eventually(() => b.cachedSnapshot(subject(), cut0) === undefined, 'B drops the forgotten rows');
    });

    it('picks up a row another writer changed in the database when it is notified', async () => {
      const a = await host();
      a.put(subject(), cut0, rows());
      await a.drain();
      await sql(db!.url, "UPDATE projection_cache_rows SET state = '[' WHERE key = 'title'");
      expect(a.cachedSnapshot(subject(), cut0, ['title'])).toBeDefined(); // not notified yet
      await sql(db!.url, 'SELECT pg_notify($1, $2)', [CACHE_CHANNEL, 's1']);
      await eventually(
        () => a.cachedSnapshot(subject(), cut0, ['title']) === undefined,
        'the damaged row misses',
      );
      expect(a.cachedSnapshot(subject(), cut0, ['usage'])?.values).toEqual({
        usage: NO_USAGE,
      });
    });

    it('never moves a row back to an older cut when a slower host writes after a newer one', async () => {
      const a = await host();
      const b = await host();
      a.put(subject(), cut0, rows());
      await a.drain();
      b.put(subject(), cut0, rows(1)); // B folded less and writes late
      await b.drain();
      const stored = await sql(db!.url, "SELECT cut FROM projection_cache_rows WHERE key = 'title'");
      expect(stored.rows).toEqual([{ cut: '4' }]);
      const c = await host();
      await c.prefetch(['s1']);
      expect(c.cachedSnapshot(subject(), cut0, ['title'])).toEqual({
        asOfSeq: 3,
        values: { title: 'Hello' },
      });
      await eventually(
        () => b.cachedSnapshot(subject(), cut0, ['title'])?.asOfSeq === 3,
        'B converges on the newer row',
      );
    });

    it('logs a write-behind failure and keeps serving the mirror without throwing', async () => {
      const logger = recordingLogger();
      const a = await host(logger);
      await sql(db!.url, 'DROP TABLE projection_cache_rows');
      expect(() => a.put(subject(), cut0, rows())).not.toThrow();
      expect(a.cachedSnapshot(subject(), cut0, ['title'])?.values).toEqual({ title: 'Hello' });
      await a.drain();
      const failed = logger.entries.find((e) => e.message.startsWith('write-behind failed'));
      expect(failed?.fields).toMatchObject({
        sessionId: 's1',
        error: expect.objectContaining({ code: 'PROJECTION_CACHE_WRITE_FAILED' }) as Error,
      });
      // A notice now makes it reload from a table that is gone: logged, and the mirror still serves.
      await sql(db!.url, 'SELECT pg_notify($1, $2)', [CACHE_CHANNEL, 's1']);
      await eventually(
        () => logger.entries.some((e) => e.message.startsWith('loading cache rows from PostgreSQL failed')),
        'the failed reload is logged',
      );
      expect(logger.entries.find((e) => e.message.startsWith('loading cache rows'))?.fields).toMatchObject({
        error: expect.objectContaining({ code: 'PROJECTION_CACHE_READ_FAILED' }) as Error,
      });
      expect(a.cachedSnapshot(subject(), cut0, ['title'])?.values).toEqual({ title: 'Hello' });
      expect(() => a.forget(header().id)).not.toThrow();
      await a.drain();
    });

    it('reconnects a terminated listener and reloads what it missed meanwhile', async () => {
      const logger = recordingLogger();
      const a = await host();
      // B waits long enough before reconnecting that A's write certainly commits while B is away.
      const b = await host(logger, { reconnectBackoffMs: { first: 1_500, max: 5_000 } });
      // Held before (as having no rows), so a read never loads them again: only the reload after
      // the reconnection (s1) and a notice (s2) can bring A's rows.
      await b.prefetch(['s1', 's2']);
      const terminated = await sql(
        db!.url,
        'SELECT pg_terminate_backend(pid, 5000) AS done FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1',
        [LISTENER_APPLICATION_NAME],
      );
      expect(terminated.rows).toEqual([{ done: true }, { done: true }]);
      // Committed while B's listener is gone: its notice reaches nobody on B's side.
      a.put(subject(), cut0, rows());
      await a.drain();
      await eventually(() => b.cachedSnapshot(subject(), cut0, ['title']) !== undefined, 'B serves the row');
      expect(logger.entries.map((e) => e.message)).toContainEqual(
        expect.stringMatching(/^lost the connection/),
      );
      // And it listens again: a later write arrives through a notice.
      a.put(subject('s2'), cut0, registry.foldAll(header('s2'), events).rows);
      await eventually(() => b.cachedSnapshot(subject('s2'), cut0) !== undefined, 'B serves the next row');
    });

    it('writes what was queued when closed, and a host opened afterwards serves it', async () => {
      const a = await host();
      for (let i = 0; i < 20; i++)
        a.put(subject(`s${i}`), cut0, registry.foldAll(header(`s${i}`), events).rows);
      a.close(); // the synchronous close: stops serving now, writes behind
      expect(a.cachedSnapshot(subject('s0'), cut0)).toBeUndefined();
      await a.closeAsync(); // the same shutdown, awaited
      const b = await host();
      await b.prefetch(['s19']);
      expect(b.cachedSnapshot(subject('s19'), cut0, ['title'])?.values).toEqual({ title: 'Hello' });
    });

    it('migrates a version-1 database: its rows are kept, the list index and usage hours are added empty', async () => {
      const a = await host();
      a.put(subject(), cut0, rows());
      await a.closeAsync();
      // Back to what a version-1 build left: no list index (nor usage hours).
      await sql(db!.url, 'DROP TABLE usage_hours');
      await sql(db!.url, 'DROP TABLE list_rows');
      await sql(db!.url, "UPDATE strand_schema SET version = 1 WHERE component = 'projection-cache'");
      const b = await host();
      const version = await sql(
        db!.url,
        "SELECT version FROM strand_schema WHERE component = 'projection-cache'",
      );
      expect(version.rows).toEqual([{ version: CACHE_SCHEMA_VERSION }]);
      await b.prefetch(['s1']);
      expect(b.cachedSnapshot(subject(), cut0, ['title'])?.values).toEqual({ title: 'Hello' });
      expect((await b.listIndex!.identities({ after: '', limit: 10 })).length).toBe(0);
      b.put(subject(), cut0, rows());
      expect((await b.listIndex!.rows(['s1']))[0]?.hints?.values.title).toBe('Hello');
      expect((await b.listIndex!.usage({})).map((session) => session.id)).toEqual(['s1']);
    });

    it("sees another host's list rows once they commit, and its own before they do", async () => {
      const a = await host();
      const b = await host();
      a.put(subject(), cut0, rows());
      // A's read waits for A's queued write: no drain needed to see its own row.
      expect((await a.listIndex!.rows(['s1'])).map((row) => row.header.id)).toEqual(['s1']);
      const page = await b.listIndex!.page({ filter: {}, limit: 10 });
      expect(page.map((row) => row.header.id)).toEqual(['s1']);
    });

    it('opens without loading a row; a read loads that session only, a prefetch those asked', async () => {
      const a = await host();
      for (let i = 0; i < 30; i++)
        a.put(subject(`s${i}`), cut0, registry.foldAll(header(`s${i}`), events).rows);
      await a.closeAsync();
      const b = await host();
      expect(b.mirroredSessions).toBe(0);
      // Not held: this read misses (the caller folds the log) and loads s7 for the next one.
      expect(b.cachedSnapshot(subject('s7'), cut0, ['title'])).toBeUndefined();
      await b.drain();
      expect(b.mirroredSessions).toBe(1);
      expect(b.cachedSnapshot(subject('s7'), cut0, ['title'])?.values).toEqual({ title: 'Hello' });
      await b.prefetch(['s1', 's2', 'absent']);
      expect(b.mirroredSessions).toBe(4);
      expect(b.cachedStates(subject('s2'), cut0).title?.cut).toBe(4);
      expect(b.mirroredBytes).toBeGreaterThan(0);
    });

    it('holds at most maxSessions, evicting the least recently read; an evicted one loads again', async () => {
      const a = await host();
      for (let i = 0; i < 6; i++)
        a.put(subject(`s${i}`), cut0, registry.foldAll(header(`s${i}`), events).rows);
      await a.drain();
      const b = await host(recordingLogger(), { mirror: { maxSessions: 3 } });
      await b.prefetch(['s0', 's1', 's2']);
      expect(b.cachedSnapshot(subject('s0'), cut0, ['title'])).toBeDefined(); // s0 used last
      await b.prefetch(['s3', 's4']);
      expect(b.mirroredSessions).toBe(3);
      expect(b.cachedSnapshot(subject('s1'), cut0)).toBeUndefined(); // evicted: a miss
      expect(b.cachedSnapshot(subject('s2'), cut0)).toBeUndefined();
      await b.prefetch(['s1']);
      expect(b.cachedSnapshot(subject('s1'), cut0, ['title'])?.values).toEqual({ title: 'Hello' });
      expect(b.mirroredSessions).toBe(3);
    });

    it('reloads on a notice only the sessions it holds', async () => {
      const a = await host();
      const b = await host();
      await b.prefetch(['s2']);
      a.put(subject('s1'), cut0, rows());
      await a.drain(); // s1's notice goes out before s2's
      a.put(subject('s2'), cut0, registry.foldAll(header('s2'), events).rows);
      await eventually(
        () => b.cachedSnapshot(subject('s2'), cut0) !== undefined,
        'B reloads s2 on its notice',
      );
      expect(b.mirroredSessions).toBe(1); // s1's notice loaded nothing
    });

    it('a failed load is logged as PROJECTION_CACHE_READ_FAILED, never thrown; reads miss (fault injection)', async () => {
      const a = await host();
      a.put(subject(), cut0, rows());
      await a.drain();
      const logger = recordingLogger();
      const b = await host(logger);
      await sql(db!.url, 'ALTER TABLE projection_cache_rows RENAME TO projection_cache_rows_away');
      await expect(b.prefetch(['s1'])).resolves.toBeUndefined();
      expect(() => b.cachedSnapshot(subject(), cut0, ['title'])).not.toThrow();
      expect(b.cachedSnapshot(subject(), cut0, ['title'])).toBeUndefined();
      await b.drain();
      const failed = logger.entries.find((e) =>
        e.message.startsWith('loading cache rows from PostgreSQL failed'),
      );
      expect(failed?.fields).toMatchObject({
        error: expect.objectContaining({ code: 'PROJECTION_CACHE_READ_FAILED', sessionId: 's1' }) as Error,
      });
      // Once the table is back, the next load serves the row.
      await sql(db!.url, 'ALTER TABLE projection_cache_rows_away RENAME TO projection_cache_rows');
      await b.prefetch(['s1']);
      expect(b.cachedSnapshot(subject(), cut0, ['title'])?.values).toEqual({ title: 'Hello' });
    });

    it('refuses mirror bounds that are not positive integers', async () => {
      db ??= await createTestDatabase();
      await expect(
        openPostgresProjectionCache({ url: db.url, registry, mirror: { maxSessions: 0 } }),
      ).rejects.toMatchObject({ code: 'PROJECTION_CACHE_OPEN_FAILED' });
    });

    it('refuses a database holding a newer cache schema', async () => {
      await (await host()).closeAsync();
      await sql(db!.url, "UPDATE strand_schema SET version = 99 WHERE component = 'projection-cache'");
      await expect(openPostgresProjectionCache({ url: db!.url, registry })).rejects.toMatchObject({
        code: 'PROJECTION_CACHE_SCHEMA_UNSUPPORTED',
      });
    });

    it('fails to open an unreachable server with PROJECTION_CACHE_OPEN_FAILED', async () => {
      await expect(
        openPostgresProjectionCache({ url: 'postgres://strand@127.0.0.1:1/nowhere', registry }),
      ).rejects.toMatchObject({ code: 'PROJECTION_CACHE_OPEN_FAILED' });
    });
  });
});
