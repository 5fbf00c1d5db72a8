import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { SessionSearchIndex } from './session-search-index.js';
import { openSqliteUnderTest } from './test/sqlite-under-test.js';
import { forkedSession, openTestCorpus, persistedSession, user } from './testing/corpus.js';
import { searchForkSuite } from './testing/fork-suite.js';
import type { SearchPage } from './types.js';

const ids = (page: SearchPage): string[] => page.results.map((r) => r.sessionId);

// The behaviour both engines share; below, what is SQLite's own (its schema file).
searchForkSuite('SQLite FTS5', openSqliteUnderTest);

describe('forks (SQLite): schema', () => {
  it("starts a schema-3 index file over, so a fork's inherited prefix is no longer found as its own", async () => {
    const corpus = await openTestCorpus();
    try {
      const file = `${corpus.root}/old.db`;
      const parent = await persistedSession(corpus.persistence, 'parent', [user('a gannet')]);
      await forkedSession(corpus.persistence, 'fork', parent, [user('a tern')]);
      const first = SessionSearchIndex.open({ path: file });
      await first.sync(corpus.sources);
      const generation = first.generation;
      first.close();
      // A schema-3 file as the previous release wrote it: no own_from column, and the fork's copy
      // of the parent's message indexed as the fork's own.
      const raw = new Database(file);
      raw.exec(`ALTER TABLE search_sessions DROP COLUMN own_from;
        INSERT INTO search_text (rowid, text)
          SELECT sid << 32, 'a gannet' FROM search_sessions WHERE session_id = 'fork';`);
      raw.pragma('user_version = 3');
      raw.close();
      const reopened = SessionSearchIndex.open({ path: file });
      try {
        expect(reopened.generation).toBe(generation + 1);
        expect(ids(await reopened.search('gannet'))).toEqual([]);
        await reopened.sync(corpus.sources);
        expect(ids(await reopened.search('gannet'))).toEqual(['parent']);
        expect(ids(await reopened.search('tern'))).toEqual(['fork']);
      } finally {
        reopened.close();
      }
    } finally {
      await corpus.dispose();
    }
  });
});
