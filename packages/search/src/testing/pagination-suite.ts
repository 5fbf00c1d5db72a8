import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionStore, type Session } from '@strand/session';
import { isSearchIndexError } from '../errors.js';
import type { SearchIndex } from '../search-index.js';
import type { SearchPage } from '../types.js';
import { openTestCorpus, persistedSession, searchTestHeader, user, type TestCorpus } from './corpus.js';
import { disposedAfterEach, feedLive, type OpenSearchIndex } from './harness.js';

const SESSIONS = 27;
const idOf = (i: number): string => `s${String(i).padStart(2, '0')}`;

/** Every session of a search, page by page. */
async function walk(index: SearchIndex, query: string, limit: number): Promise<string[]> {
  const out: string[] = [];
  let cursor: string | null = null;
  do {
    const page: SearchPage = await index.search(query, { limit, ...(cursor === null ? {} : { cursor }) });
    out.push(...page.results.map((r) => r.sessionId));
    cursor = page.nextCursor;
  } while (cursor !== null);
  return out;
}

/**
 * Pages, cursors and generations — the same on every engine (README: "Cursors and generations"):
 * pages never repeat or skip a session whatever is appended between them; a cursor of another
 * query, another index, an expired snapshot or an older generation is refused.
 */
export function searchPaginationSuite(engine: string, openIndex: OpenSearchIndex): void {
  describe(`search index (${engine}): pagination and cursors`, () => {
    const open = disposedAfterEach(openIndex);
    let corpus: TestCorpus;
    beforeEach(async () => {
      corpus = await openTestCorpus();
    });
    afterEach(async () => {
      await corpus.dispose();
    });

    /** 27 persisted sessions; session i mentions "needle" in (i % 4) + 1 events, among some filler. */
    async function seed(): Promise<Map<string, Session>> {
      const sessions = new Map<string, Session>();
      for (let i = 0; i < SESSIONS; i++) {
        const texts = [
          `filler ${i}`,
          ...Array.from({ length: (i % 4) + 1 }, (_, k) => `the needle number ${k} of ${i}`),
          'more filler',
        ];
        sessions.set(
          idOf(i),
          await persistedSession(
            corpus.persistence,
            idOf(i),
            texts.map(user),
            searchTestHeader(idOf(i), 1_700_000_000_000 + i),
          ),
        );
      }
      return sessions;
    }

    async function mutateBetweenPages(
      index: SearchIndex,
      sessions: Map<string, Session>,
      page: number,
    ): Promise<void> {
      const all = [...sessions.values()];
      // Appends to other sessions and to the same ones, matching and not, plus brand-new sessions.
      await all[(page * 7) % all.length]!.append([user(`late needle ${page}`), user('late filler')]);
      await all[(page * 11 + 3) % all.length]!.append(user(`needle needle needle ${page}`));
      await all[(page * 5 + 1) % all.length]!.append(user('no match here'));
      await persistedSession(
        corpus.persistence,
        `new-${page}`,
        [user(`a brand new needle ${page}`)],
        searchTestHeader(`new-${page}`, 1_800_000_000_000 + page),
      );
      await index.sync(corpus.sources);
    }

    describe.each([
      { name: 'one rank window', rankWindow: undefined },
      { name: 'many small rank windows', rankWindow: 5 },
    ])('pagination with $name', ({ rankWindow }) => {
      it('never repeats or skips a session that existed at the first page, whatever is appended between pages', async () => {
        const sessions = await seed();
        const { index } = await open(rankWindow === undefined ? {} : { rankWindow });
        await index.sync(corpus.sources);
        const seen: string[] = [];
        let mutations = 0;
        let page: SearchPage = await index.search('needle', { limit: 4 });
        for (let n = 1; ; n++) {
          expect(page.results.length).toBeLessThanOrEqual(4);
          seen.push(...page.results.map((r) => r.sessionId));
          if (page.nextCursor === null) break;
          await mutateBetweenPages(index, sessions, n);
          mutations++;
          page = await index.search('needle', { limit: 4, cursor: page.nextCursor });
        }
        expect(new Set(seen).size).toBe(seen.length);
        expect(seen.filter((id) => !id.startsWith('new-')).sort()).toEqual(
          Array.from({ length: SESSIONS }, (_, i) => idOf(i)),
        );
        // New sessions sort above every window: they belong to the next search, not this one.
        expect(seen.filter((id) => id.startsWith('new-'))).toEqual([]);
        // A fresh search sees them all.
        const fresh = await walk(index, 'needle', 100);
        expect(fresh.filter((id) => id.startsWith('new-'))).toHaveLength(mutations);
      });

      it('continues deterministically: two walks of one unchanged result set give the same pages', async () => {
        await seed();
        const { index } = await open(rankWindow === undefined ? {} : { rankWindow });
        await index.sync(corpus.sources);
        const all = await walk(index, 'needle', 100);
        expect(all).toHaveLength(SESSIONS);
        expect(await walk(index, 'needle', 4)).toEqual(all);
        expect(await walk(index, 'needle', 5)).toEqual(all);
      });
    });

    describe('cursors', () => {
      it('refuses a cursor from before a rebuild as stale, and searches again after it', async () => {
        await seed();
        const { index } = await open();
        await index.sync(corpus.sources);
        const first = await index.search('needle', { limit: 4 });
        expect(first.generation).toBe(1);
        await index.rebuild(corpus.sources);
        expect(await index.currentGeneration()).toBe(2);
        await expect(index.search('needle', { limit: 4, cursor: first.nextCursor! })).rejects.toSatisfy((e) =>
          isSearchIndexError(e, 'SEARCH_STALE_CURSOR'),
        );
        const again = await index.search('needle', { limit: 4 });
        expect(again.generation).toBe(2);
        await expect(index.search('needle', { limit: 4, cursor: again.nextCursor! })).resolves.toMatchObject({
          generation: 2,
        });
      });

      it('keeps a cursor valid while live sessions receive appends', async () => {
        const { index } = await open();
        const store = new SessionStore();
        const live = await seed();
        for (const session of live.values()) store.attach(session);
        await index.sync({ persistence: corpus.sources.persistence, live: store });
        const feeds = [...live.values()].map((s) => feedLive(index, s));
        let page = await index.search('needle', { limit: 10 });
        const seen = page.results.map((r) => r.sessionId);
        for (const session of live.values()) await session.append(user('needle appended live'));
        while (page.nextCursor !== null) {
          page = await index.search('needle', { limit: 10, cursor: page.nextCursor });
          seen.push(...page.results.map((r) => r.sessionId));
        }
        expect(seen.sort()).toEqual([...live.keys()].sort());
        for (const feed of feeds) await feed.stop();
      });

      it('refuses a cursor of another query, another index, or an expired snapshot', async () => {
        await seed();
        let clock = 0;
        const { index } = await open({ now: () => clock, snapshotIdleMs: 1_000, maxSnapshots: 2 });
        const { index: other } = await open();
        await index.sync(corpus.sources);
        await other.sync(corpus.sources);
        const { nextCursor } = await index.search('needle', { limit: 2 });
        await expect(index.search('filler', { cursor: nextCursor! })).rejects.toSatisfy((e) =>
          isSearchIndexError(e, 'SEARCH_INVALID_QUERY'),
        );
        await expect(other.search('needle', { cursor: nextCursor! })).rejects.toSatisfy((e) =>
          isSearchIndexError(e, 'SEARCH_STALE_CURSOR'),
        );
        // Idle past retention: the next snapshot created prunes it.
        clock = 5_000;
        await index.search('filler', { limit: 2 });
        await expect(index.search('needle', { limit: 2, cursor: nextCursor! })).rejects.toSatisfy((e) =>
          isSearchIndexError(e, 'SEARCH_STALE_CURSOR'),
        );
        // Beyond the snapshot count: the least recently used goes.
        const a = (await index.search('needle', { limit: 2 })).nextCursor!;
        const b = (await index.search('filler', { limit: 2 })).nextCursor!;
        await index.search('number', { limit: 2 });
        await expect(index.search('needle', { limit: 2, cursor: a })).rejects.toSatisfy((e) =>
          isSearchIndexError(e, 'SEARCH_STALE_CURSOR'),
        );
        await expect(index.search('filler', { limit: 2, cursor: b })).resolves.toBeDefined();
      });

      it('keeps cursors across a restart of the index', async () => {
        await seed();
        const target = await open();
        await target.index.sync(corpus.sources);
        const first = await target.index.search('needle', { limit: 20 });
        const index = await target.reopen();
        const second = await index.search('needle', { limit: 20, cursor: first.nextCursor! });
        expect(
          second.results
            .map((r) => r.sessionId)
            .filter((id) => first.results.some((r) => r.sessionId === id)),
        ).toEqual([]);
        expect(first.results.length + second.results.length).toBe(SESSIONS);
      });
    });
  });
}
