import { describe, expect, it } from 'vitest';
import { SessionSearchIndex } from './session-search-index.js';
import { searchSyncSuite } from './testing/sync-suite.js';
import { openSqliteUnderTest } from './test/sqlite-under-test.js';
import { openTestCorpus, persistedSession, user } from './testing/corpus.js';

searchSyncSuite('SQLite FTS5', openSqliteUnderTest);

// SQLite only: the synchronous surface the host uses today (`generation` getter, `indexLive`
// committed on return), beside the engine-neutral async one.
describe('SessionSearchIndex (SQLite) synchronous surface', () => {
  it('reads the generation synchronously and commits indexLive before it returns', async () => {
    const corpus = await openTestCorpus();
    const index = SessionSearchIndex.open({ path: ':memory:' });
    try {
      const live = await persistedSession(corpus.persistence, 'now', [user('quick quokka')]);
      expect(index.generation).toBe(1);
      expect(index.indexLive(live)).toEqual({ events: 1, rows: 1 });
      expect((await index.search('quokka')).results.map((r) => r.sessionId)).toEqual(['now']);
      await index.rebuild({ persistence: corpus.persistence });
      expect(index.generation).toBe(2);
    } finally {
      index.close();
      await corpus.dispose();
    }
  });
});
