import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { projectNameOf, Session } from '@strand/session';
import { SessionSearchIndex } from './session-search-index.js';
import { openSqliteUnderTest } from './test/sqlite-under-test.js';
import { forkedSession, openTestCorpus, persistedSession, user, type TestCorpus } from './testing/corpus.js';
import { allPages, facetHeader, searchFacetSuite, testFacets } from './testing/facet-suite.js';
import type { SearchPage } from './types.js';

const ids = (page: SearchPage): string[] => page.results.map((r) => r.sessionId);

// The behaviour both engines share; below, what is SQLite's own (its schema file) and a property.
searchFacetSuite('SQLite FTS5', openSqliteUnderTest);

describe('facets (SQLite): schema and filtered paging', () => {
  let corpus: TestCorpus;
  beforeEach(async () => {
    corpus = await openTestCorpus();
  });
  afterEach(async () => {
    await corpus.dispose();
  });

  it('starts a schema-2 index file over, so every session it indexed is filed under its facets', async () => {
    const file = `${corpus.root}/old.db`;
    await persistedSession(corpus.persistence, 'old', [user('gannet')], facetHeader('old', '/work/old'));
    // A schema-2 file as the previous release wrote it: no facet or filter columns.
    const first = SessionSearchIndex.open({ path: file, facets: testFacets });
    await first.sync(corpus.sources);
    const generation = first.generation;
    first.close();
    const raw = new Database(file);
    raw.exec(`DROP TABLE search_sessions; DROP TABLE search_snapshots;
      CREATE TABLE search_sessions (sid INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL UNIQUE,
        incarnation TEXT, revision TEXT, cut INTEGER NOT NULL, durable_cut INTEGER NOT NULL);
      CREATE TABLE search_snapshots (id INTEGER PRIMARY KEY AUTOINCREMENT, generation INTEGER NOT NULL,
        expression TEXT NOT NULL, upper_sid INTEGER, size INTEGER NOT NULL, touched_at INTEGER NOT NULL);
      INSERT INTO search_sessions (session_id, incarnation, revision, cut, durable_cut) VALUES ('old', 'x', 'y', 1, 1);`);
    raw.pragma('user_version = 2');
    raw.close();
    const reopened = SessionSearchIndex.open({ path: file, facets: testFacets });
    try {
      expect(reopened.generation).toBe(generation + 1);
      expect(ids(await reopened.search('gannet'))).toEqual([]);
      const report = await reopened.sync(corpus.sources);
      expect(report.reindexed + report.updated).toBeGreaterThan(0);
      expect(ids(await reopened.search('gannet', { cwd: '/work/old' }))).toEqual(['old']);
      expect(ids(await reopened.search('gannet', { harness: 'strand' }))).toEqual(['old']);
    } finally {
      reopened.close();
    }
  });

  it('starts a schema-4 index file over, so every result carries its lineage', async () => {
    const file = `${corpus.root}/v4.db`;
    const parent = await persistedSession(corpus.persistence, 'parent', [user('gannet')]);
    await forkedSession(corpus.persistence, 'fork', parent, [user('a tern')]);
    const first = SessionSearchIndex.open({ path: file, facets: testFacets });
    await first.sync(corpus.sources);
    const generation = first.generation;
    first.close();
    // A schema-4 file as the previous release wrote it: no lineage columns.
    const raw = new Database(file);
    raw.exec(`ALTER TABLE search_sessions DROP COLUMN parent_session;
      ALTER TABLE search_sessions DROP COLUMN origin; ALTER TABLE search_sessions DROP COLUMN forked_from;`);
    raw.pragma('user_version = 4');
    raw.close();
    const reopened = SessionSearchIndex.open({ path: file, facets: testFacets });
    try {
      expect(reopened.generation).toBe(generation + 1);
      expect(ids(await reopened.search('tern'))).toEqual([]);
      await reopened.sync(corpus.sources);
      const page = await reopened.search('tern');
      expect(page.results.map((r) => [r.sessionId, r.facts])).toEqual([
        ['fork', { harness: 'strand', forkedFrom: 'parent' }],
      ]);
    } finally {
      reopened.close();
    }
  });

  it('starts a schema-5 index file over, so every session it indexed is filed under its project name', async () => {
    const file = `${corpus.root}/v5.db`;
    await persistedSession(corpus.persistence, 'old', [user('gannet')], facetHeader('old', '/work/strand/'));
    const first = SessionSearchIndex.open({ path: file, facets: testFacets });
    await first.sync(corpus.sources);
    const generation = first.generation;
    first.close();
    // A schema-5 file as the previous release wrote it: no project name column.
    const raw = new Database(file);
    raw.exec(
      `DROP INDEX search_sessions_project_name; ALTER TABLE search_sessions DROP COLUMN project_name;`,
    );
    raw.pragma('user_version = 5');
    raw.close();
    const reopened = SessionSearchIndex.open({ path: file, facets: testFacets });
    try {
      expect(reopened.generation).toBe(generation + 1);
      expect(ids(await reopened.search('gannet'))).toEqual([]);
      const report = await reopened.sync(corpus.sources);
      expect(report.reindexed + report.updated).toBeGreaterThan(0);
      expect(ids(await reopened.search('gannet', { projectName: 'strand' }))).toEqual(['old']);
      expect(ids(await reopened.search('gannet', { projectName: 'work' }))).toEqual([]);
    } finally {
      reopened.close();
    }
  });

  it('a filtered search pages exactly the matching sessions, whatever the facets, filter (project name included) and window (property)', async () => {
    // Live sessions (indexed from memory), so each run is cheap; small rank windows make the
    // filtered windows cross session boundaries. The seed is the run's (vitest.config.ts: printed,
    // replayed from STRAND_TEST_SEED).
    // Two folders named `a` (one with a trailing separator, one a Windows path), so a project name
    // matches sessions a `cwd` tells apart.
    const cwds = [undefined, '/a', '/b', '/w/a/', 'C:\\src\\a'] as const;
    const harnesses = [undefined, 'codex'] as const satisfies readonly (string | undefined)[];
    const session = fc.record({
      cwd: fc.constantFrom(...cwds),
      harness: fc.constantFrom(...harnesses),
      matches: fc.nat({ max: 3 }),
    });
    const filter = fc.record({
      cwd: fc.constantFrom(...cwds),
      projectName: fc.constantFrom(undefined, 'a', 'b', 'src'),
      harness: fc.constantFrom(undefined, 'codex', 'strand'),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(session, { maxLength: 12 }),
        filter,
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 4 }),
        async (sessions, wanted, limit, rankWindow) => {
          const index = SessionSearchIndex.open({ path: ':memory:', facets: testFacets, rankWindow });
          try {
            const expected: string[] = [];
            for (const [n, spec] of sessions.entries()) {
              const id = `s${n}`;
              const live = new Session({ header: facetHeader(id, spec.cwd, spec.harness) });
              await live.append([
                user('filler'),
                ...Array.from({ length: spec.matches }, () => user('tern')),
              ]);
              index.indexLive(live);
              const harness = spec.harness ?? 'strand';
              if (
                spec.matches > 0 &&
                (wanted.cwd === undefined || wanted.cwd === spec.cwd) &&
                (wanted.projectName === undefined || wanted.projectName === projectNameOf(spec.cwd)) &&
                (wanted.harness === undefined || wanted.harness === harness)
              )
                expected.push(id);
            }
            const pages = await allPages(index, 'tern', { limit, ...wanted });
            const seen = pages.flatMap(ids);
            expect(seen).toHaveLength(new Set(seen).size);
            expect(seen.sort()).toEqual(expected.sort());
          } finally {
            index.close();
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
