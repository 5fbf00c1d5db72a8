import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import { isSearchIndexError, type SearchIndexTuning } from '@strand/search';
import {
  facetHeader,
  forkedSession,
  labelEvent,
  openTestCorpus,
  persistedSession,
  searchFacetSuite,
  searchForkSuite,
  searchLabelSuite,
  searchLiteralSuite,
  searchPaginationSuite,
  searchSyncSuite,
  searchTestHeader,
  testFacets,
  testLabeler,
  user,
  type SearchIndexUnderTest,
  type TestCorpus,
} from '@strand/search/testing';
import { createTestDatabase, noPostgres, type TestDatabase } from '../testing/index.js';
import { openPostgresSearchIndex, type PostgresSearchIndex } from './postgres-search-index.js';
import { LAST_RESET_SCHEMA, SEARCH_SCHEMA_VERSION } from './search-schema.js';

/** A PostgreSQL index in a fresh database of its own; `reopen` is a new pool on the same database. */
async function openPgUnderTest(options: SearchIndexTuning = {}): Promise<SearchIndexUnderTest> {
  const db = await createTestDatabase('strand_search');
  let current: PostgresSearchIndex | undefined;
  try {
    current = await openPostgresSearchIndex({ url: db.url, maxConnections: 2, ...options });
  } catch (error) {
    await db.drop();
    throw error;
  }
  let index = current;
  return {
    get index() {
      return index;
    },
    async reopen() {
      await index.close();
      index = await openPostgresSearchIndex({ url: db.url, maxConnections: 2, ...options });
      return index;
    },
    async dispose() {
      await index.close();
      await db.drop();
    },
  };
}

describe.skipIf(noPostgres)('PostgreSQL search index', () => {
  searchLiteralSuite('PostgreSQL', openPgUnderTest);
  searchPaginationSuite('PostgreSQL', openPgUnderTest);
  searchSyncSuite('PostgreSQL', openPgUnderTest);
  searchLabelSuite('PostgreSQL', openPgUnderTest);
  searchFacetSuite('PostgreSQL', openPgUnderTest);
  searchForkSuite('PostgreSQL', openPgUnderTest);

  describe('several hosts on one database', () => {
    let db: TestDatabase;
    let corpus: TestCorpus;
    const opened: PostgresSearchIndex[] = [];
    const host = async (options: SearchIndexTuning = {}): Promise<PostgresSearchIndex> => {
      const index = await openPostgresSearchIndex({ url: db.url, maxConnections: 2, ...options });
      opened.push(index);
      return index;
    };
    const count = async (sql: string): Promise<number> => {
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      try {
        return Number((await client.query<{ n: string }>(sql)).rows[0]!.n);
      } finally {
        await client.end();
      }
    };

    /** Turns the database back into what an older build left: `sql` undoes the newer schema. */
    const backToSchema = async (version: number, sql: string): Promise<void> => {
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      try {
        await client.query(sql);
        await client.query("UPDATE strand_schema SET version = $1 WHERE component = 'search'", [version]);
      } finally {
        await client.end();
      }
    };

    /** Two sessions with "gannet" and "tern" ('old' labelled "gannet tern"), synced by a first host. */
    const twoGannetSessions = async (): Promise<{ first: PostgresSearchIndex; generation: number }> => {
      await persistedSession(corpus.persistence, 'old', [
        labelEvent('gannet tern'),
        user('a gannet and a tern'),
      ]);
      await persistedSession(corpus.persistence, 'other', [user('one gannet and one tern')]);
      const first = await host({ labeler: testLabeler });
      await first.sync(corpus.sources);
      return { first, generation: await first.currentGeneration() };
    };

    beforeEach(async () => {
      db = await createTestDatabase('strand_search');
      corpus = await openTestCorpus();
    });
    afterEach(async () => {
      for (const index of opened.splice(0)) await index.close();
      await corpus.dispose();
      await db.drop();
    });

    it('two hosts syncing concurrently write no duplicate rows and agree on one result', async () => {
      const SESSIONS = 24;
      for (let i = 0; i < SESSIONS; i++) {
        await persistedSession(
          corpus.persistence,
          `h${i}`,
          Array.from({ length: 40 }, (_, k) => user(k % 5 === 0 ? `shared marmot ${i} ${k}` : `plain ${k}`)),
          searchTestHeader(`h${i}`, 1_700_000_000_000 + i),
        );
      }
      const [a, b] = await Promise.all([host(), host()]);
      const [reportA, reportB] = await Promise.all([a.sync(corpus.sources), b.sync(corpus.sources)]);
      expect(reportA.failures).toEqual([]);
      expect(reportB.failures).toEqual([]);
      // Each event was indexed once, by one host or the other: the second to lock a session's row
      // skipped what the first had written, rather than resetting it and writing it again.
      expect(reportA.rowsWritten + reportB.rowsWritten).toBe(SESSIONS * 40);
      expect(await count('SELECT count(*) AS n FROM search_sessions')).toBe(SESSIONS);
      expect(await count('SELECT count(*) AS n FROM search_events')).toBe(SESSIONS * 40);
      expect(
        await count(
          'SELECT count(*) AS n FROM (SELECT sid, seq FROM search_events GROUP BY sid, seq HAVING count(*) > 1) d',
        ),
      ).toBe(0);
      expect(
        await count('SELECT count(*) AS n FROM search_sessions WHERE cut <> 40 OR durable_cut <> 40'),
      ).toBe(0);

      // Both hosts give the same page, and a later sync on either has nothing left to do.
      const pageA = await a.search('marmot', { limit: 100 });
      const pageB = await b.search('marmot', { limit: 100 });
      expect(pageA.results.map((r) => r.sessionId)).toHaveLength(SESSIONS);
      expect(pageB.results).toEqual(pageA.results);
      corpus.reads.reset();
      expect(await b.sync(corpus.sources)).toMatchObject({ updated: 0, eventsRead: 0 });
    });

    it('two hosts appending and syncing the same sessions concurrently stay consistent', async () => {
      const sessions = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          persistedSession(corpus.persistence, `c${i}`, [user(`start ${i}`)], searchTestHeader(`c${i}`, i)),
        ),
      );
      const [a, b] = await Promise.all([host(), host()]);
      for (let round = 0; round < 5; round++) {
        await Promise.all(sessions.map((s) => s.append([user(`round ${round} lynx`), user('filler')])));
        await Promise.all([a.sync(corpus.sources), b.sync(corpus.sources)]);
      }
      expect(await count('SELECT count(*) AS n FROM search_events')).toBe(6 * 11);
      const found = await a.search('lynx round', { limit: 10 });
      expect(found.results.map((r) => r.sessionId).sort()).toEqual(sessions.map((s) => s.id).sort());
      expect(found.results.every((r) => r.hits.length === 3)).toBe(true);
    });

    it('continues a cursor of one host on another, and a rebuild on one makes it stale on both', async () => {
      for (let i = 0; i < 12; i++)
        await persistedSession(
          corpus.persistence,
          `p${i}`,
          [user(`wombat ${i}`)],
          searchTestHeader(`p${i}`, i),
        );
      const a = await host();
      const b = await host();
      await a.sync(corpus.sources);
      const first = await a.search('wombat', { limit: 5 });
      const second = await b.search('wombat', { limit: 5, cursor: first.nextCursor! });
      expect(
        second.results.map((r) => r.sessionId).filter((id) => first.results.some((r) => r.sessionId === id)),
      ).toEqual([]);
      await b.rebuild(corpus.sources);
      expect(await a.currentGeneration()).toBe(2);
      await expect(a.search('wombat', { limit: 5, cursor: second.nextCursor! })).rejects.toSatisfy((e) =>
        isSearchIndexError(e, 'SEARCH_STALE_CURSOR'),
      );
    });

    it('refuses a database whose search schema is newer than this build', async () => {
      await (await host()).close();
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      try {
        await client.query("UPDATE strand_schema SET version = version + 1 WHERE component = 'search'");
      } finally {
        await client.end();
      }
      await expect(host()).rejects.toSatisfy(
        (e) =>
          isSearchIndexError(e, 'SEARCH_INDEX_FAILED') &&
          (e as Error).cause instanceof Error &&
          ((e as Error).cause as { code?: string }).code === 'POSTGRES_SCHEMA_NEWER',
      );
    });

    it('migrates a schema-1 database by starting the index over, so labels cover everything it indexed', async () => {
      await persistedSession(corpus.persistence, 'old', [labelEvent('gannet'), user('a gannet')]);
      const first = await host({ labeler: testLabeler });
      await first.sync(corpus.sources);
      const generation = await first.currentGeneration();
      await first.close();
      // Back to what a schema-1 build left: no labels table, version 1.
      await backToSchema(1, 'DROP TABLE search_labels');
      // Two hosts of this build start together: the migration runs once (one generation bump per
      // step: 1 → 2 and every later step to LAST_RESET_SCHEMA start the index over).
      const [a, b] = await Promise.all([host({ labeler: testLabeler }), host({ labeler: testLabeler })]);
      expect(await a.currentGeneration()).toBe(generation + LAST_RESET_SCHEMA - 1);
      expect(await count('SELECT count(*) AS n FROM search_sessions')).toBe(0);
      expect(await count("SELECT version AS n FROM strand_schema WHERE component = 'search'")).toBe(
        SEARCH_SCHEMA_VERSION,
      );
      await a.sync(corpus.sources);
      const page = await b.search('gannet');
      expect(page.results.map((r) => [r.sessionId, r.label, r.hits[0]?.seq])).toEqual([['old', 'gannet', 0]]);
    });

    it('migrates a schema-2 database by starting the index over, so every session is filed under its facets', async () => {
      await persistedSession(corpus.persistence, 'old', [user('a gannet')], facetHeader('old', '/work/old'));
      const first = await host({ facets: testFacets });
      await first.sync(corpus.sources);
      const generation = await first.currentGeneration();
      await first.close();
      // Back to what a schema-2 build left: no facet or filter columns, version 2.
      await backToSchema(
        2,
        `ALTER TABLE search_sessions DROP COLUMN cwd, DROP COLUMN harness;
          ALTER TABLE search_snapshots DROP COLUMN filter`,
      );
      const [a, b] = await Promise.all([host({ facets: testFacets }), host({ facets: testFacets })]);
      // One generation bump per step from 2 (2 → 3, and each later step to LAST_RESET_SCHEMA, starts the index over).
      expect(await a.currentGeneration()).toBe(generation + LAST_RESET_SCHEMA - 2);
      expect(await count('SELECT count(*) AS n FROM search_sessions')).toBe(0);
      expect(await count('SELECT count(*) AS n FROM search_events')).toBe(0);
      expect(await count("SELECT version AS n FROM strand_schema WHERE component = 'search'")).toBe(
        SEARCH_SCHEMA_VERSION,
      );
      await a.sync(corpus.sources);
      expect((await b.search('gannet', { cwd: '/work/old' })).results.map((r) => r.sessionId)).toEqual([
        'old',
      ]);
      expect((await b.search('gannet', { cwd: '/work/new' })).results).toEqual([]);
    });

    it("migrates a schema-3 database by starting the index over, so a fork's inherited prefix is its parent's", async () => {
      const parent = await persistedSession(corpus.persistence, 'parent', [user('a gannet')]);
      await forkedSession(corpus.persistence, 'fork', parent, [user('a tern')]);
      const first = await host();
      await first.sync(corpus.sources);
      const generation = await first.currentGeneration();
      await first.close();
      // Back to what a schema-3 build left: no own_from column, and the fork's copy of the parent's
      // message indexed as the fork's own.
      await backToSchema(
        3,
        `ALTER TABLE search_sessions DROP COLUMN own_from;
          INSERT INTO search_events (sid, seq, text, tsv)
          SELECT f.sid, 0, 'a gannet', to_tsvector('simple', 'a gannet') FROM search_sessions f WHERE f.session_id = 'fork'`,
      );
      const a = await host();
      // One generation bump per step from 3 (3 → 4, and each later step to LAST_RESET_SCHEMA, starts the index over).
      expect(await a.currentGeneration()).toBe(generation + LAST_RESET_SCHEMA - 3);
      expect(await count('SELECT count(*) AS n FROM search_events')).toBe(0);
      await a.sync(corpus.sources);
      expect((await a.search('gannet')).results.map((r) => r.sessionId)).toEqual(['parent']);
      expect((await a.search('tern')).results.map((r) => r.sessionId)).toEqual(['fork']);
    });

    it('migrates a schema-4 database by starting the index over, so every result carries its lineage', async () => {
      const parent = await persistedSession(corpus.persistence, 'parent', [user('a gannet')]);
      await forkedSession(corpus.persistence, 'fork', parent, [user('a tern')]);
      const first = await host({ facets: testFacets });
      await first.sync(corpus.sources);
      const generation = await first.currentGeneration();
      await first.close();
      // Back to what a schema-4 build left: no lineage columns, its rows filed without them.
      await backToSchema(
        4,
        'ALTER TABLE search_sessions DROP COLUMN parent_session, DROP COLUMN origin, DROP COLUMN forked_from',
      );
      const a = await host({ facets: testFacets });
      // One generation bump per step from 4 (4 → 5, and each later step to LAST_RESET_SCHEMA, starts the index over).
      expect(await a.currentGeneration()).toBe(generation + LAST_RESET_SCHEMA - 4);
      expect(await count('SELECT count(*) AS n FROM search_sessions')).toBe(0);
      await a.sync(corpus.sources);
      expect((await a.search('tern')).results.map((r) => [r.sessionId, r.facts])).toEqual([
        ['fork', { harness: 'strand', forkedFrom: 'parent' }],
      ]);
    });

    it('migrates a schema-7 database in place: sid sampled more widely, rows, generation and cursors kept', async () => {
      const { first, generation } = await twoGannetSessions();
      const before = await first.search('gannet', { limit: 1 });
      if (before.nextCursor === null)
        throw new Error('two sessions match: a first page of one has a next cursor');
      const rows = await count('SELECT count(*) AS n FROM search_events');
      const target =
        "SELECT attstattarget AS n FROM pg_attribute WHERE attrelid = 'search_events'::regclass AND attname = 'sid'";
      expect(await count(target)).toBe(1000);
      await first.close();
      // Back to what a schema-7 build left: the default statistics target.
      await backToSchema(7, 'ALTER TABLE search_events ALTER COLUMN sid SET STATISTICS -1');
      expect(await count(target)).toBe(-1);
      const [a, b] = await Promise.all([host({ labeler: testLabeler }), host({ labeler: testLabeler })]);
      expect(await a.currentGeneration()).toBe(generation);
      expect(await count(target)).toBe(1000);
      expect(await count('SELECT count(*) AS n FROM search_events')).toBe(rows);
      expect(await count("SELECT version AS n FROM strand_schema WHERE component = 'search'")).toBe(
        SEARCH_SCHEMA_VERSION,
      );
      // The statistics were taken again by the migration.
      expect(
        await count(
          "SELECT count(*) AS n FROM pg_stats WHERE tablename = 'search_events' AND attname = 'sid'",
        ),
      ).toBe(1);
      // A cursor from before the upgrade still pages, on either host.
      const next = await b.search('gannet', { limit: 1, cursor: before.nextCursor });
      expect([...before.results, ...next.results].map((r) => r.sessionId).sort()).toEqual(['old', 'other']);
      // A label match shows its session's best event hit (read by the batched per-session query).
      expect((await a.search('tern')).results.map((r) => [r.sessionId, r.hits.map((h) => h.seq)])).toEqual([
        ['old', [0, 1]],
        ['other', [0]],
      ]);
    });

    it('migrates a schema-6 database by starting the index over, so every vector holds its word pairs', async () => {
      const { first, generation } = await twoGannetSessions();
      const before = (await first.search('"gannet and"', { limit: 1 })).nextCursor;
      if (before === null) throw new Error('two sessions match: a first page of one has a next cursor');
      await first.close();
      // Back to what a schema-6 build left: word vectors, the plain text index, no functions.
      await backToSchema(
        6,
        `DROP INDEX search_events_bucket_tsv;
         CREATE INDEX search_events_tsv ON search_events USING gin (tsv);
         UPDATE search_events SET tsv = to_tsvector('simple', text);
         UPDATE search_labels SET tsv = to_tsvector('simple', text);
         DROP FUNCTION strand_search_phrase(text), strand_search_tsv(text),
           strand_search_with_pairs(tsvector)`,
      );
      const [a, b] = await Promise.all([host({ labeler: testLabeler }), host({ labeler: testLabeler })]);
      expect(await a.currentGeneration()).toBe(generation + 1);
      expect(await count('SELECT count(*) AS n FROM search_events')).toBe(0);
      expect(await count("SELECT version AS n FROM strand_schema WHERE component = 'search'")).toBe(
        SEARCH_SCHEMA_VERSION,
      );
      expect(
        await count(
          "SELECT count(*) AS n FROM pg_indexes WHERE indexname IN ('search_events_tsv', 'search_events_bucket_tsv')",
        ),
      ).toBe(1);
      // A cursor from before the upgrade names the old generation: expired, search again.
      await expect(a.search('"gannet and"', { limit: 1, cursor: before })).rejects.toSatisfy((e) =>
        isSearchIndexError(e, 'SEARCH_STALE_CURSOR'),
      );
      await a.sync(corpus.sources);
      // Every vector is what this build writes: the words and their pairs.
      expect(
        await count('SELECT count(*) AS n FROM search_events WHERE tsv <> strand_search_tsv(lower(text))'),
      ).toBe(0);
      expect(
        await count(
          "SELECT count(*) AS n FROM search_events WHERE tsv @@ ('_' || left(md5('gannet and'), 4))::tsquery",
        ),
      ).toBe(2);
      expect((await b.search('"gannet and"')).results.map((r) => [r.sessionId, r.hits[0]?.seq])).toEqual([
        ['other', 0],
        ['old', 1],
      ]);
      expect((await a.search('"and gannet"')).results).toEqual([]);
      expect((await a.search('"gannet tern"')).results.map((r) => [r.sessionId, r.label])).toEqual([
        ['old', 'gannet tern'],
      ]);
    });

    it('migrates a schema-5 database by starting the index over, so every session is filed under its project name', async () => {
      await persistedSession(
        corpus.persistence,
        'old',
        [user('a gannet')],
        facetHeader('old', '/work/strand/'),
      );
      const first = await host({ facets: testFacets });
      await first.sync(corpus.sources);
      const generation = await first.currentGeneration();
      await first.close();
      // Back to what a schema-5 build left: no project name column (nor its index).
      await backToSchema(5, 'ALTER TABLE search_sessions DROP COLUMN project_name');
      const [a, b] = await Promise.all([host({ facets: testFacets }), host({ facets: testFacets })]);
      // One generation bump per step from 5 (5 → 6 and 6 → 7 start the index over).
      expect(await a.currentGeneration()).toBe(generation + LAST_RESET_SCHEMA - 5);
      expect(await count('SELECT count(*) AS n FROM search_sessions')).toBe(0);
      expect(await count("SELECT version AS n FROM strand_schema WHERE component = 'search'")).toBe(
        SEARCH_SCHEMA_VERSION,
      );
      await a.sync(corpus.sources);
      expect((await b.search('gannet', { projectName: 'strand' })).results.map((r) => r.sessionId)).toEqual([
        'old',
      ]);
      expect((await b.search('gannet', { projectName: 'work' })).results).toEqual([]);
    });
  });
});
