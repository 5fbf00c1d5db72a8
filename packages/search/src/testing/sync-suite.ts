import { describe, expect, it } from 'vitest';
import { PersistenceError } from '@strand/persistence';
import { Session, SessionId, type SessionEvent } from '@strand/session';
import { isSearchIndexError } from '../errors.js';
import type { SearchSources } from '../types.js';
import { persistedSession, searchTestHeader, user } from './corpus.js';
import { feedLive, withTestIndex, type OpenSearchIndex } from './harness.js';

/**
 * Incremental sync, live indexing and abort — the same on every engine (README: "What it
 * indexes"): only changed suffixes are read, live sessions are indexed from memory, text memory
 * held but the log never received does not stay, failures are isolated.
 */
export function searchSyncSuite(engine: string, openIndex: OpenSearchIndex): void {
  describe(`search index (${engine}): sync and live indexing`, () => {
    const fixture = withTestIndex(openIndex);

    const found = async (query: string): Promise<string[]> =>
      (await fixture.index.search(query, { limit: 100 })).results.map((r) => r.sessionId).sort();

    describe('incremental sync', () => {
      it('reads only the suffix of a session whose revision changed, and nothing of the others', async () => {
        const a = await persistedSession(fixture.corpus.persistence, 'a', [
          user('alpha one'),
          user('alpha two'),
        ]);
        await persistedSession(fixture.corpus.persistence, 'b', [user('bravo')]);
        const first = await fixture.index.sync(fixture.corpus.sources);
        expect(first).toMatchObject({
          sessions: 2,
          updated: 2,
          eventsRead: 3,
          eventsIndexed: 3,
          rowsWritten: 3,
          failures: [],
        });
        expect(fixture.corpus.reads.readFromCalls.sort((x, y) => x.id.localeCompare(y.id))).toEqual([
          { id: 'a', from: 0 },
          { id: 'b', from: 0 },
        ]);

        fixture.corpus.reads.reset();
        await a.append([user('alpha three'), { type: 'step/start', data: {} }]);
        const second = await fixture.index.sync(fixture.corpus.sources);
        expect(fixture.corpus.reads.readFromCalls).toEqual([{ id: 'a', from: 2 }]);
        expect(fixture.corpus.reads.eventsRead).toBe(2);
        expect(second).toMatchObject({
          updated: 1,
          reindexed: 0,
          eventsRead: 2,
          eventsIndexed: 2,
          rowsWritten: 1,
        });
        expect((await fixture.index.search('three')).results[0]!.hits.map((h) => h.seq)).toEqual([2]);

        fixture.corpus.reads.reset();
        expect(await fixture.index.sync(fixture.corpus.sources)).toMatchObject({ updated: 0, eventsRead: 0 });
        expect(fixture.corpus.reads.readFromCalls).toEqual([]);
      });

      it('reindexes a session deleted and created again (a new incarnation) from 0', async () => {
        await persistedSession(fixture.corpus.persistence, 'phoenix', [
          user('old ashes'),
          user('more old ashes'),
        ]);
        await fixture.index.sync(fixture.corpus.sources);
        await fixture.corpus.persistence.delete(SessionId('phoenix'));
        await persistedSession(fixture.corpus.persistence, 'phoenix', [
          user('new flames'),
          user('x'),
          user('y'),
        ]);
        fixture.corpus.reads.reset();
        const report = await fixture.index.sync(fixture.corpus.sources);
        expect(report).toMatchObject({ updated: 1, reindexed: 1, dropped: 0 });
        expect(fixture.corpus.reads.readFromCalls).toEqual([{ id: 'phoenix', from: 0 }]);
        expect(await found('ashes')).toEqual([]);
        expect(await found('flames')).toEqual(['phoenix']);
      });

      it('drops sessions that vanished from the corpus', async () => {
        await persistedSession(fixture.corpus.persistence, 'gone', [user('ephemeral words')]);
        await persistedSession(fixture.corpus.persistence, 'kept', [user('ephemeral too')]);
        await fixture.index.sync(fixture.corpus.sources);
        await fixture.corpus.persistence.delete(SessionId('gone'));
        expect(await fixture.index.sync(fixture.corpus.sources)).toMatchObject({ dropped: 1 });
        expect(await found('ephemeral')).toEqual(['kept']);
      });

      it('isolates a session whose read fails: reported, its rows kept, the others indexed', async () => {
        await persistedSession(fixture.corpus.persistence, 'bad', [user('broken text')]);
        await persistedSession(fixture.corpus.persistence, 'good', [user('healthy text')]);
        const failing: SearchSources = {
          persistence: {
            list: (options) => fixture.corpus.persistence.list(options),
            readFrom: (id, from, options) =>
              id === 'bad'
                ? Promise.reject(
                    new PersistenceError('PERSISTENCE_CORRUPT', 'damaged frame', { sessionId: id }),
                  )
                : fixture.corpus.persistence.readFrom(id, from, options),
          },
        };
        const report = await fixture.index.sync(failing);
        expect(report.failures.map((f) => [f.sessionId, f.error.code])).toEqual([
          ['bad', 'SEARCH_PERSISTENCE_FAILED'],
        ]);
        expect(await found('text')).toEqual(['good']);
        expect((await fixture.index.sync(fixture.corpus.sources)).failures).toEqual([]);
        expect(await found('text')).toEqual(['bad', 'good']);
      });

      it('rebuild drops everything and reindexes from scratch under a new generation', async () => {
        await persistedSession(fixture.corpus.persistence, 'r', [user('rebuilt words')]);
        await fixture.index.sync(fixture.corpus.sources);
        fixture.corpus.reads.reset();
        const report = await fixture.index.rebuild(fixture.corpus.sources);
        expect(report).toMatchObject({ updated: 1, reindexed: 1, eventsRead: 1 });
        expect(await fixture.index.currentGeneration()).toBe(2);
        expect(await found('rebuilt')).toEqual(['r']);
      });
    });

    describe('live sessions', () => {
      it('indexes live sessions from memory, with no disk read', async () => {
        const live = await persistedSession(fixture.corpus.persistence, 'live', [user('streaming otter')]);
        fixture.corpus.store.attach(live);
        await fixture.index.sync(fixture.corpus.sources);
        expect(fixture.corpus.reads.readFromCalls).toEqual([]);
        expect(await found('otter')).toEqual(['live']);

        await live.append(user('second otter'));
        expect((await fixture.index.sync(fixture.corpus.sources)).eventsIndexed).toBe(1);
        expect(fixture.corpus.reads.readFromCalls).toEqual([]);

        // A host feeds appends as they happen: searchable without any sync.
        const feed = feedLive(fixture.index, live);
        await live.append(user('instant beaver'));
        await feed.stop();
        expect(await found('beaver')).toEqual(['live']);
        expect(fixture.corpus.reads.readFromCalls).toEqual([]);
      });

      it('makes a live append searchable by the next search, even before its indexing is awaited', async () => {
        const live = await persistedSession(fixture.corpus.persistence, 'eager', [user('first words')]);
        fixture.corpus.store.attach(live);
        await fixture.index.sync(fixture.corpus.sources);
        await live.append(user('sudden walrus'));
        const pending = Promise.resolve(fixture.index.indexLive(live));
        expect(await found('walrus')).toEqual(['eager']);
        expect(await pending).toEqual({ events: 1, rows: 1 });
      });

      it('indexes a live session that was never persisted, and drops it once it is gone', async () => {
        const ephemeral = new Session({ header: searchTestHeader('mem') });
        await ephemeral.append(user('memory only lemur'));
        fixture.corpus.store.attach(ephemeral);
        await fixture.index.sync(fixture.corpus.sources);
        expect(await found('lemur')).toEqual(['mem']);
        fixture.corpus.store.detach(ephemeral);
        expect(await fixture.index.sync(fixture.corpus.sources)).toMatchObject({ dropped: 1 });
        expect(await found('lemur')).toEqual([]);
      });

      it('re-reads from disk what was indexed from memory once the session is cold', async () => {
        const session = await persistedSession(fixture.corpus.persistence, 'warm', [user('durable start')]);
        await fixture.index.sync(fixture.corpus.sources);
        fixture.corpus.store.attach(session);
        await session.append([user('written while live'), user('also live')]);
        await fixture.index.indexLive(session);
        fixture.corpus.store.detach(session);
        fixture.corpus.reads.reset();
        await fixture.index.sync(fixture.corpus.sources);
        expect(fixture.corpus.reads.readFromCalls).toEqual([{ id: 'warm', from: 1 }]);
        expect(await found('live')).toEqual(['warm']);
        fixture.corpus.reads.reset();
        await fixture.index.sync(fixture.corpus.sources);
        expect(fixture.corpus.reads.readFromCalls).toEqual([]);
      });

      it('never keeps text that memory held but the log never received', async () => {
        const header = searchTestHeader('torn');
        const { incarnation } = await fixture.corpus.persistence.create({ header });
        const session = new Session({
          header,
          incarnation,
          writer: {
            write: (events) => fixture.corpus.persistence.append(header.id, events).then(() => undefined),
          },
        });
        await session.append(user('durable words'));
        // Memory runs ahead of disk (as before a crash or a failed write): a session over the same
        // incarnation whose extra event never reached the log.
        const ahead = new Session({
          header,
          incarnation,
          events: [...session.events, { ...session.events[0]!, seq: 1 } as SessionEvent],
        });
        fixture.corpus.store.attach(ahead);
        await fixture.index.indexLive(ahead);
        expect(await found('durable')).toEqual(['torn']);
        expect((await fixture.index.search('durable')).results[0]!.hits).toHaveLength(2);
        fixture.corpus.store.detach(ahead);
        await fixture.index.sync(fixture.corpus.sources);
        expect((await fixture.index.search('durable')).results[0]!.hits.map((h) => h.seq)).toEqual([0]);
      });
    });

    describe('abort', () => {
      it('honours an aborted signal in sync, rebuild and search', async () => {
        await persistedSession(fixture.corpus.persistence, 'x', [user('words')]);
        const signal = AbortSignal.abort();
        await expect(fixture.index.sync(fixture.corpus.sources, { signal })).rejects.toSatisfy((e) =>
          isSearchIndexError(e, 'SEARCH_ABORTED'),
        );
        await expect(fixture.index.rebuild(fixture.corpus.sources, { signal })).rejects.toSatisfy((e) =>
          isSearchIndexError(e, 'SEARCH_ABORTED'),
        );
        expect(await fixture.index.currentGeneration()).toBe(1);
        await expect(fixture.index.search('words', { signal })).rejects.toSatisfy((e) =>
          isSearchIndexError(e, 'SEARCH_ABORTED'),
        );
      });

      it('stops a sync at the next checkpoint, keeps what was committed, and a later sync finishes', async () => {
        for (let i = 0; i < 5; i++)
          await persistedSession(
            fixture.corpus.persistence,
            `s${i}`,
            [user(`common word ${i}`)],
            searchTestHeader(`s${i}`, i),
          );
        const controller = new AbortController();
        const run = fixture.index.sync(fixture.corpus.sources, {
          signal: controller.signal,
          onProgress: ({ sessionsDone }) => {
            if (sessionsDone === 2) controller.abort(new Error('user cancelled'));
          },
        });
        await expect(run).rejects.toSatisfy((e) => isSearchIndexError(e, 'SEARCH_ABORTED'));
        expect(await found('common')).toEqual(['s0', 's1']);
        fixture.corpus.reads.reset();
        await fixture.index.sync(fixture.corpus.sources);
        expect(fixture.corpus.reads.readFromCalls.map((c) => c.id)).toEqual(['s2', 's3', 's4']);
        expect(await found('common')).toHaveLength(5);
      });

      it('fails every call on a closed index with SEARCH_INDEX_FAILED', async () => {
        const { index: closing } = await fixture.open();
        await closing.close();
        const failed = (e: unknown): boolean => isSearchIndexError(e, 'SEARCH_INDEX_FAILED');
        await expect(closing.search('words')).rejects.toSatisfy(failed);
        await expect(closing.sync(fixture.corpus.sources)).rejects.toSatisfy(failed);
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
