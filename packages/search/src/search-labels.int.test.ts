import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Session } from '@strand/session';
import { SessionSearchIndex } from './session-search-index.js';
import { openSqliteUnderTest } from './test/sqlite-under-test.js';
import { openTestCorpus, persistedSession, searchTestHeader, type TestCorpus } from './testing/corpus.js';
import { labelEvent, searchLabelSuite, testLabeler } from './testing/label-suite.js';
import type { SearchPage } from './types.js';

const labeler = testLabeler;
const label = labelEvent;
const ids = (page: SearchPage): string[] => page.results.map((r) => r.sessionId);

// The behaviour both engines share; below, what is SQLite's own (its schema file) and a property.
searchLabelSuite('SQLite FTS5', openSqliteUnderTest);

describe('session labels (SQLite): schema and the label fold', () => {
  let corpus: TestCorpus;
  beforeEach(async () => {
    corpus = await openTestCorpus();
  });
  afterEach(async () => {
    await corpus.dispose();
  });

  it('starts a schema-1 index file over, so labels cover everything it indexed', async () => {
    const dir = corpus.root;
    const file = `${dir}/old.db`;
    await persistedSession(corpus.persistence, 'old', [label('gannet')]);
    const first = SessionSearchIndex.open({ path: file, labeler });
    await first.sync(corpus.sources);
    const generation = first.generation;
    first.close();
    const raw = new Database(file);
    raw.exec('DELETE FROM search_labels');
    raw.pragma('user_version = 1');
    raw.close();
    const reopened = SessionSearchIndex.open({ path: file, labeler });
    expect(reopened.generation).toBe(generation + 1);
    await reopened.sync(corpus.sources);
    expect(ids(await reopened.search('gannet'))).toEqual(['old']);
    reopened.close();
  });

  it('the label is the last label event of each session, over any interleaving (property)', async () => {
    // Words w0…w5 as labels; sessions are live (indexed from memory), so each run is cheap.
    // The seed is the run's (vitest.config.ts: printed, replayed from STRAND_TEST_SEED).
    const step = fc.record({
      session: fc.nat({ max: 2 }),
      label: fc.option(fc.nat({ max: 5 }), { nil: null }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 12 }), async (steps) => {
        const runIndex = SessionSearchIndex.open({ path: ':memory:', labeler });
        try {
          const sessions = [0, 1, 2].map((n) => new Session({ header: searchTestHeader(`s${n}`) }));
          const expected = new Map<string, string | null>();
          for (const { session, label: word } of steps) {
            await sessions[session]!.append(label(word === null ? null : `w${word}`));
            expected.set(`s${session}`, word === null ? null : `w${word}`);
          }
          for (const session of sessions) runIndex.indexLive(session);
          for (let w = 0; w <= 5; w++) {
            const want = [...expected].filter(([, current]) => current === `w${w}`).map(([id]) => id);
            const page = await runIndex.search(`w${w}`);
            expect(ids(page).sort()).toEqual(want.sort());
            for (const result of page.results) expect(result.label).toBe(`w${w}`);
          }
        } finally {
          runIndex.close();
        }
      }),
      { numRuns: 40 },
    );
  });
});
