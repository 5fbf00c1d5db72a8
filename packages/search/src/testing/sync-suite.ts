import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PersistenceError } from '@strand/persistence';
import { Session, SessionId, type SessionEvent } from '@strand/session';
import { isSearchIndexError } from '../errors.js';
import type { SearchIndex } from '../search-index.js';
import type { SearchSources } from '../types.js';
import { openTestCorpus, persistedSession, searchTestHeader, user, type TestCorpus } from './corpus.js';
import { disposedAfterEach, feedLive, type OpenSearchIndex } from './harness.js';

/**
 * Incremental sync, live indexing and abort — the same on every engine (README: "What it
 * indexes"): only changed suffixes are read, live sessions are indexed from memory, text memory
 * held but the log never received does not stay, failures are isolated.
 */
export function searchSyncSuite(engine: string, openIndex: OpenSearchIndex): void {
  describe(`search index (${engine}): sync and live indexing`, () => {
    const open = disposedAfterEach(openIndex);
    let corpus: TestCorpus;
    let index: SearchIndex;
    beforeEach(async () => {
      corpus = await openTestCorpus();
      index = (await open()).index;
    });
    afterEach(async () => {
      await corpus.dispose();
    });

    const found = async (query: string): Promise<string[]> =>
      (await index.search(query, { limit: 100 })).results.map((r) => r.sessionId).sort();

    describe('incremental sync', () => {
      it('reads only the suffix of a session whose revision changed, and nothing of the others', async () => {
        const a = await persistedSession(corpus.persistence, 'a', [user('alpha one'), user('alpha two')]);
        await persistedSession(corpus.persistence, 'b', [user('bravo')]);
        const first = await index.sync(corpus.sources);
        expect(first).toMatchObject({
          sessions: 2,
          updated: 2,
          eventsRead: 3,
          eventsIndexed: 3,
          rowsWritten: 3,
          failures: [],
        });
        expect(corpus.reads.readFromCalls.sort((x, y) => x.id.localeCompare(y.id))).toEqual([
          { id: 'a', from: 0 },
          { id: 'b', from: 0 },
        ]);

        corpus.reads.reset();
        await a.append([user('alpha three'), { type: 'step/start', data: {} }]);
        const second = await index.sync(corpus.sources);
        expect(corpus.reads.readFromCalls).toEqual([{ id: 'a', from: 2 }]);
        expect(corpus.reads.eventsRead).toBe(2);
        expect(second).toMatchObject({
          updated: 1,
          reindexed: 0,
          eventsRead: 2,
          eventsIndexed: 2,
          rowsWritten: 1,
        });
        expect((await index.search('three')).results[0]!.hits.map((h) => h.seq)).toEqual([2]);

        corpus.reads.reset();
        expect(await index.sync(corpus.sources)).toMatchObject({ updated: 0, eventsRead: 0 });
        expect(corpus.reads.readFromCalls).toEqual([]);
      });

      it('reindexes a session deleted and created again (a new incarnation) from 0', async () => {
        await persistedSession(corpus.persistence, 'phoenix', [user('old ashes'), user('more old ashes')]);
        await index.sync(corpus.sources);
        await corpus.persistence.delete(SessionId('phoenix'));
        await persistedSession(corpus.persistence, 'phoenix', [user('new flames'), user('x'), user('y')]);
        corpus.reads.reset();
        const report = await index.sync(corpus.sources);
        expect(report).toMatchObject({ updated: 1, reindexed: 1, dropped: 0 });
        expect(corpus.reads.readFromCalls).toEqual([{ id: 'phoenix', from: 0 }]);
        expect(await found('ashes')).toEqual([]);
        expect(await found('flames')).toEqual(['phoenix']);
      });

      it('drops sessions that vanished from the corpus', async () => {
        await persistedSession(corpus.persistence, 'gone', [user('ephemeral words')]);
        await persistedSession(corpus.persistence, 'kept', [user('ephemeral too')]);
        await index.sync(corpus.sources);
        await corpus.persistence.delete(SessionId('gone'));
        expect(await index.sync(corpus.sources)).toMatchObject({ dropped: 1 });
        expect(await found('ephemeral')).toEqual(['kept']);
      });

      it('isolates a session whose read fails: reported, its rows kept, the others indexed', async () => {
        await persistedSession(corpus.persistence, 'bad', [user('broken text')]);
        await persistedSession(corpus.persistence, 'good', [user('healthy text')]);
        const failing: SearchSources = {
          persistence: {
            list: (options) => corpus.persistence.list(options),
            readFrom: (id, from, options) =>
              id === 'bad'
                ? Promise.reject(
                    new PersistenceError('PERSISTENCE_CORRUPT', 'damaged frame', { sessionId: id }),
                  )
                : corpus.persistence.readFrom(id, from, options),
          },
        };
        const report = await index.sync(failing);
        expect(report.failures.map((f) => [f.sessionId, f.error.code])).toEqual([
          ['bad', 'SEARCH_PERSISTENCE_FAILED'],
        ]);
        expect(await found('text')).toEqual(['good']);
        expect((await index.sync(corpus.sources)).failures).toEqual([]);
        expect(await found('text')).toEqual(['bad', 'good']);
      });

      it('rebuild drops everything and reindexes from scratch under a new generation', async () => {
        await persistedSession(corpus.persistence, 'r', [user('rebuilt words')]);
        await index.sync(corpus.sources);
        corpus.reads.reset();
        const report = await index.rebuild(corpus.sources);
        expect(report).toMatchObject({ updated: 1, reindexed: 1, eventsRead: 1 });
        expect(await index.currentGeneration()).toBe(2);
        expect(await found('rebuilt')).toEqual(['r']);
      });
    });

    describe('live sessions', () => {
      it('indexes live sessions from memory, with no disk read', async () => {
        const live = await persistedSession(corpus.persistence, 'live', [user('streaming otter')]);
        corpus.store.attach(live);
        await index.sync(corpus.sources);
        expect(corpus.reads.readFromCalls).toEqual([]);
        expect(await found('otter')).toEqual(['live']);

        await live.append(user('second otter'));
        expect((await index.sync(corpus.sources)).eventsIndexed).toBe(1);
        expect(corpus.reads.readFromCalls).toEqual([]);

        // A host feeds appends as they happen: searchable without any sync.
        const feed = feedLive(index, live);
        await live.append(user('instant beaver'));
        await feed.stop();
        expect(await found('beaver')).toEqual(['live']);
        expect(corpus.reads.readFromCalls).toEqual([]);
      });

      it('makes a live append searchable by the next search, even before its indexing is awaited', async () => {
        const live = await persistedSession(corpus.persistence, 'eager', [user('first words')]);
        corpus.store.attach(live);
        await index.sync(corpus.sources);
        await live.append(user('sudden walrus'));
        const pending = Promise.resolve(index.indexLive(live));
        expect(await found('walrus')).toEqual(['eager']);
        expect(await pending).toEqual({ events: 1, rows: 1 });
      });

      it('indexes a live session that was never persisted, and drops it once it is gone', async () => {
        const ephemeral = new Session({ header: searchTestHeader('mem') });
        await ephemeral.append(user('memory only lemur'));
        corpus.store.attach(ephemeral);
        await index.sync(corpus.sources);
        expect(await found('lemur')).toEqual(['mem']);
        corpus.store.detach(ephemeral);
        expect(await index.sync(corpus.sources)).toMatchObject({ dropped: 1 });
        expect(await found('lemur')).toEqual([]);
      });

      it('re-reads from disk what was indexed from memory once the session is cold', async () => {
        const session = await persistedSession(corpus.persistence, 'warm', [user('durable start')]);
        await index.sync(corpus.sources);
        corpus.store.attach(session);
        await session.append([user('written while live'), user('also live')]);
        await index.indexLive(session);
        corpus.store.detach(session);
        corpus.reads.reset();
        await index.sync(corpus.sources);
        expect(corpus.reads.readFromCalls).toEqual([{ id: 'warm', from: 1 }]);
        expect(await found('live')).toEqual(['warm']);
        corpus.reads.reset();
        await index.sync(corpus.sources);
        expect(corpus.reads.readFromCalls).toEqual([]);
      });

      it('never keeps text that memory held but the log never received', async () => {
        const header = searchTestHeader('torn');
        const { incarnation } = await corpus.persistence.create({ header });
        const session = new Session({
          header,
          incarnation,
          writer: { write: (events) => corpus.persistence.append(header.id, events).then(() => undefined) },
        });
        await session.append(user('durable words'));
        // Memory runs ahead of disk (as before a crash or a failed write): a session over the same
        // incarnation whose extra event never reached the log.
        const ahead = new Session({
          header,
          incarnation,
          events: [...session.events, { ...session.events[0]!, seq: 1 } as SessionEvent],
        });
        corpus.store.attach(ahead);
        await index.indexLive(ahead);
        expect(await found('durable')).toEqual(['torn']);
        expect((await index.search('durable')).results[0]!.hits).toHaveLength(2);
        corpus.store.detach(ahead);
        await index.sync(corpus.sources);
        expect((await index.search('durable')).results[0]!.hits.map((h) => h.seq)).toEqual([0]);
      });
    });

    describe('abort', () => {
      it('honours an aborted signal in sync, rebuild and search', async () => {
        await persistedSession(corpus.persistence, 'x', [user('words')]);
        const signal = AbortSignal.abort();
        await expect(index.sync(corpus.sources, { signal })).rejects.toSatisfy((e) =>
          isSearchIndexError(e, 'SEARCH_ABORTED'),
        );
        await expect(index.rebuild(corpus.sources, { signal })).rejects.toSatisfy((e) =>
          isSearchIndexError(e, 'SEARCH_ABORTED'),
        );
        expect(await index.currentGeneration()).toBe(1);
        await expect(index.search('words', { signal })).rejects.toSatisfy((e) =>
          isSearchIndexError(e, 'SEARCH_ABORTED'),
        );
      });

      it('stops a sync at the next checkpoint, keeps what was committed, and a later sync finishes', async () => {
        for (let i = 0; i < 5; i++)
          await persistedSession(
            corpus.persistence,
            `s${i}`,
            [user(`common word ${i}`)],
            searchTestHeader(`s${i}`, i),
          );
        const controller = new AbortController();
        const run = index.sync(corpus.sources, {
          signal: controller.signal,
          onProgress: ({ sessionsDone }) => {
            if (sessionsDone === 2) controller.abort(new Error('user cancelled'));
          },
        });
        await expect(run).rejects.toSatisfy((e) => isSearchIndexError(e, 'SEARCH_ABORTED'));
        expect(await found('common')).toEqual(['s0', 's1']);
        corpus.reads.reset();
        await index.sync(corpus.sources);
        expect(corpus.reads.readFromCalls.map((c) => c.id)).toEqual(['s2', 's3', 's4']);
        expect(await found('common')).toHaveLength(5);
      });

      it('fails every call on a closed index with SEARCH_INDEX_FAILED', async () => {
        const { index: closing } = await open();
        await closing.close();
        const failed = (e: unknown): boolean => isSearchIndexError(e, 'SEARCH_INDEX_FAILED');
        await expect(closing.search('words')).rejects.toSatisfy(failed);
        await expect(closing.sync(corpus.sources)).rejects.toSatisfy(failed);
        await expect(closing.currentGeneration()).rejects.toSatisfy(failed);
        const session = new Session({ header: searchTestHeader('late') });
        await expect(
          (async () => {
            await closing.indexLive(session);
          })(),
        ).rejects.toSatisfy(failed);
      });
    });
  });
}
