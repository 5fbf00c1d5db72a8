import { describe, expect, it } from 'vitest';
import { newSessionHeader, Session, SessionId, type SessionHeader } from '@strand/session';
import { isSearchIndexError } from '../errors.js';
import type { FacetExtractor } from '../facets.js';
import type { SearchIndex } from '../search-index.js';
import type { SearchOptions, SearchPage } from '../types.js';
import { forkedSession, persistedSession, user } from './corpus.js';
import { withTestIndex, type OpenSearchIndex } from './harness.js';
import { labelEvent, testLabeler } from './label-suite.js';

/**
 * The suites' facet extractor: the header's `cwd`, its source's harness (`'strand'` without one),
 * and its lineage (a subagent's parent and origin, a fork's parent).
 */
export const testFacets: FacetExtractor = (header) => ({
  cwd: header.cwd,
  harness: header.source?.harness ?? 'strand',
  parentSession: header.parentSession,
  origin: header.origin,
  forkedFrom: header.forkedFrom,
});

let created = 0;
/** A header filed under `cwd` (absent: none) and imported from `harness` (absent: Strand's own). */
export function facetHeader(id: string, cwd?: string, harness?: string): SessionHeader {
  return newSessionHeader({
    id: SessionId(id),
    createdAt: 1_700_000_000_000 + created++,
    ...(cwd === undefined ? {} : { cwd }),
    ...(harness === undefined ? {} : { source: { harness, sourceId: `${id}-source` } }),
  });
}

const ids = (page: SearchPage): string[] => page.results.map((r) => r.sessionId);
const sorted = (page: SearchPage): string[] => ids(page).sort();

/** Every page of a search, in order; asserts no page holds more than `limit` sessions. */
export async function allPages(
  index: SearchIndex,
  query: string,
  options: Omit<SearchOptions, 'cursor'> & { limit: number },
): Promise<SearchPage[]> {
  const pages: SearchPage[] = [];
  let cursor: string | undefined;
  do {
    const page = await index.search(query, { ...options, ...(cursor === undefined ? {} : { cursor }) });
    expect(page.results.length).toBeLessThanOrEqual(options.limit);
    pages.push(page);
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  return pages;
}

/**
 * Facets — the same on every engine (README "Facets"): a search narrowed by `cwd`, `harness` or both
 * finds exactly the matching sessions filed under them, label matches included; a session is filed
 * under the header of the incarnation indexed, so a replaced session is found only under its new
 * facets and a deleted one under none; a filtered search pages without repeating or skipping a
 * session, with full pages; its cursor continues only that filtered search. Every result carries
 * the facts its session is filed under, its lineage included, so it is described without its log.
 */
export function searchFacetSuite(engine: string, openIndex: OpenSearchIndex): void {
  describe(`search index (${engine}): facets`, () => {
    const fixture = withTestIndex(openIndex, { labeler: testLabeler, facets: testFacets });

    const stored = (id: string, cwd?: string, harness?: string, text = 'shared plover') =>
      persistedSession(fixture.corpus.persistence, id, [user(text)], facetHeader(id, cwd, harness));

    it('narrows by cwd, by harness, by both, and not at all without a filter', async () => {
      await stored('a1', '/work/a');
      await stored('b1', '/work/b');
      await stored('a2', '/work/a', 'codex');
      await stored('c1', undefined, 'claude-code');
      await stored('sub', '/work/a/sub');
      await fixture.index.sync(fixture.corpus.sources);
      expect(sorted(await fixture.index.search('plover'))).toEqual(['a1', 'a2', 'b1', 'c1', 'sub']);
      expect(sorted(await fixture.index.search('plover', { cwd: '/work/a' }))).toEqual(['a1', 'a2']);
      expect(sorted(await fixture.index.search('plover', { harness: 'codex' }))).toEqual(['a2']);
      expect(sorted(await fixture.index.search('plover', { harness: 'strand' }))).toEqual([
        'a1',
        'b1',
        'sub',
      ]);
      expect(sorted(await fixture.index.search('plover', { cwd: '/work/a', harness: 'strand' }))).toEqual([
        'a1',
      ]);
      expect(
        sorted(await fixture.index.search('plover', { cwd: '/work/a', harness: 'claude-code' })),
      ).toEqual([]);
      expect(sorted(await fixture.index.search('plover', { cwd: '/nowhere' }))).toEqual([]);
      // Undefined fields do not narrow.
      expect(
        sorted(await fixture.index.search('plover', { cwd: undefined, harness: undefined })),
      ).toHaveLength(5);
    });

    it('narrows by project name: every folder of that last name, however its path is written', async () => {
      await stored('unix', '/home/dev/strand');
      await stored('trailing', '/srv/strand/');
      await stored('windows', 'C:\\src\\strand', 'codex');
      await stored('inside', '/home/dev/strand/web');
      await stored('other', '/home/dev/web');
      await stored('none', undefined);
      await fixture.index.sync(fixture.corpus.sources);
      expect(sorted(await fixture.index.search('plover', { projectName: 'strand' }))).toEqual([
        'trailing',
        'unix',
        'windows',
      ]);
      expect(sorted(await fixture.index.search('plover', { projectName: 'web' }))).toEqual([
        'inside',
        'other',
      ]);
      expect(
        sorted(await fixture.index.search('plover', { projectName: 'strand', harness: 'codex' })),
      ).toEqual(['windows']);
      expect(
        sorted(await fixture.index.search('plover', { projectName: 'strand', cwd: '/srv/strand/' })),
      ).toEqual(['trailing']);
      expect(sorted(await fixture.index.search('plover', { projectName: 'dev' }))).toEqual([]);
    });

    it('narrows label matches too, and keeps them first', async () => {
      await persistedSession(
        fixture.corpus.persistence,
        'titled-a',
        [user('nothing'), labelEvent('Plover notes')],
        facetHeader('titled-a', '/work/a'),
      );
      await persistedSession(
        fixture.corpus.persistence,
        'titled-b',
        [labelEvent('Plover notes')],
        facetHeader('titled-b', '/work/b'),
      );
      await stored('a1', '/work/a');
      await fixture.index.sync(fixture.corpus.sources);
      const page = await fixture.index.search('plover', { cwd: '/work/a' });
      expect(ids(page)).toEqual(['titled-a', 'a1']);
      expect(page.results[0]!.label).toBe('Plover notes');
    });

    it('files a live session under its header before it is persisted', async () => {
      const live = new Session({ header: facetHeader('live', '/work/live', 'gemini') });
      await live.append(user('plover in memory'));
      await fixture.index.indexLive(live);
      expect(ids(await fixture.index.search('plover', { cwd: '/work/live' }))).toEqual(['live']);
      expect(ids(await fixture.index.search('plover', { harness: 'gemini' }))).toEqual(['live']);
      expect(ids(await fixture.index.search('plover', { harness: 'strand' }))).toEqual([]);
    });

    it('files a session under its durable header once memory gives way to the log', async () => {
      // Memory indexed a session that never became durable (no incarnation); the log then holds
      // another incarnation of that id, under another project. Its facets follow the log, as its
      // rows do: the memory's project finds nothing.
      const memory = new Session({ header: facetHeader('torn', '/work/memory') });
      await memory.append(user('plover in memory'));
      fixture.corpus.store.attach(memory);
      await fixture.index.indexLive(memory);
      expect(ids(await fixture.index.search('plover', { cwd: '/work/memory' }))).toEqual(['torn']);
      fixture.corpus.store.detach(memory);
      await stored('torn', '/work/disk');
      await fixture.index.sync(fixture.corpus.sources);
      expect(ids(await fixture.index.search('plover', { cwd: '/work/memory' }))).toEqual([]);
      expect(ids(await fixture.index.search('plover', { cwd: '/work/disk' }))).toEqual(['torn']);
    });

    it('finds a replaced session only under its new facets, and a deleted one under none', async () => {
      await stored('moved', '/work/old');
      await stored('gone', '/work/old');
      await fixture.index.sync(fixture.corpus.sources);
      expect(sorted(await fixture.index.search('plover', { cwd: '/work/old' }))).toEqual(['gone', 'moved']);
      await fixture.corpus.persistence.delete(SessionId('moved'));
      await stored('moved', '/work/new', 'codex');
      await fixture.corpus.persistence.delete(SessionId('gone'));
      await fixture.index.sync(fixture.corpus.sources);
      expect(sorted(await fixture.index.search('plover', { cwd: '/work/old' }))).toEqual([]);
      expect(sorted(await fixture.index.search('plover', { cwd: '/work/new' }))).toEqual(['moved']);
      expect(sorted(await fixture.index.search('plover', { harness: 'codex' }))).toEqual(['moved']);
      expect(sorted(await fixture.index.search('plover', { harness: 'strand' }))).toEqual([]);
      expect(sorted(await fixture.index.search('plover'))).toEqual(['moved']);
    });

    it('pages a filtered search with full pages, never repeating or skipping a session', async () => {
      const expected: string[] = [];
      for (let i = 0; i < 13; i++) {
        const id = `s${i}`;
        const cwd = i % 3 === 0 ? '/work/other' : '/work/mine';
        // Labels on a few, so label matches and event matches share the filtered pages.
        const inputs = i % 4 === 1 ? [labelEvent(`plover ${i}`), user('plover')] : [user(`plover ${i}`)];
        await persistedSession(fixture.corpus.persistence, id, inputs, facetHeader(id, cwd));
        if (cwd === '/work/mine') expected.push(id);
      }
      await fixture.index.sync(fixture.corpus.sources);
      for (const limit of [1, 2, 3, 5]) {
        const pages = await allPages(fixture.index, 'plover', { limit, cwd: '/work/mine' });
        const seen = pages.flatMap(ids);
        expect(seen).toHaveLength(expected.length);
        expect([...seen].sort()).toEqual([...expected].sort());
        // The filter is part of the query: every page but the last is full.
        for (const page of pages.slice(0, -1)) expect(page.results).toHaveLength(limit);
      }
    });

    it('keeps a filtered cursor valid across appends and new sessions between pages', async () => {
      const sessions: Session[] = [];
      for (let i = 0; i < 6; i++) sessions.push(await stored(`s${i}`, i % 2 === 0 ? '/work/a' : '/work/b'));
      await fixture.index.sync(fixture.corpus.sources);
      const first = await fixture.index.search('plover', { limit: 2, cwd: '/work/a' });
      for (const session of sessions) await session.append(user('plover again'));
      await stored('late', '/work/a');
      await fixture.index.sync(fixture.corpus.sources);
      const seen = [...ids(first)];
      let cursor = first.nextCursor ?? undefined;
      while (cursor !== undefined) {
        const page = await fixture.index.search('plover', { limit: 2, cwd: '/work/a', cursor });
        seen.push(...ids(page));
        cursor = page.nextCursor ?? undefined;
      }
      // A session first indexed after the first page belongs to the next search.
      expect(seen.sort()).toEqual(['s0', 's2', 's4']);
      expect(sorted(await fixture.index.search('plover', { cwd: '/work/a' }))).toEqual([
        'late',
        's0',
        's2',
        's4',
      ]);
    });

    it('continues a filtered cursor only under the same filter', async () => {
      for (let i = 0; i < 4; i++) await stored(`s${i}`, '/work/a');
      await stored('b', '/work/b');
      await fixture.index.sync(fixture.corpus.sources);
      const first = await fixture.index.search('plover', { limit: 2, cwd: '/work/a' });
      const cursor = first.nextCursor!;
      expect(cursor).toEqual(expect.any(String));
      for (const other of [
        {},
        { cwd: '/work/b' },
        { cwd: '/work/a', harness: 'strand' },
        { projectName: 'a' },
      ]) {
        const refused = await fixture.index.search('plover', { limit: 2, cursor, ...other }).then(
          () => undefined,
          (error: unknown) => error,
        );
        expect(isSearchIndexError(refused, 'SEARCH_INVALID_QUERY')).toBe(true);
      }
      // And an unfiltered cursor is not continued as a filtered one.
      const unfiltered = await fixture.index.search('plover', { limit: 2 });
      const refused = await fixture.index
        .search('plover', { limit: 2, cursor: unfiltered.nextCursor!, cwd: '/work/a' })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(isSearchIndexError(refused, 'SEARCH_INVALID_QUERY')).toBe(true);
      const rest = await fixture.index.search('plover', { limit: 2, cursor, cwd: '/work/a' });
      expect([...ids(first), ...ids(rest)].sort()).toEqual(['s0', 's1', 's2', 's3']);
    });

    it('carries with each result the facts its session is filed under, lineage included', async () => {
      const { persistence } = fixture.corpus;
      const parent = await stored('parent', '/work/a', 'codex');
      const child = newSessionHeader({
        id: SessionId('child'),
        createdAt: 1_700_000_100_000,
        cwd: '/work/a',
        parentSession: SessionId('parent'),
        origin: 'subagent',
      });
      await persistedSession(persistence, 'child', [user('shared plover')], child);
      await forkedSession(persistence, 'fork', parent, [user('a forked plover')]);
      const live = new Session({ header: facetHeader('live', '/work/live', 'gemini') });
      await live.append(user('plover in memory'));
      await fixture.index.sync(fixture.corpus.sources);
      await fixture.index.indexLive(live);
      const page = await fixture.index.search('plover');
      const facts = Object.fromEntries(page.results.map((r) => [r.sessionId, r.facts]));
      expect(facts).toEqual({
        parent: { cwd: '/work/a', harness: 'codex' },
        child: { cwd: '/work/a', harness: 'strand', parentSession: 'parent', origin: 'subagent' },
        fork: { harness: 'strand', forkedFrom: 'parent' },
        live: { cwd: '/work/live', harness: 'gemini' },
      });
      // A filtered page and a label match carry them alike; a replaced session its new ones.
      await persistence.delete(SessionId('parent'));
      await stored('parent', '/work/b');
      await persistedSession(
        persistence,
        'titled',
        [labelEvent('Plover notes')],
        facetHeader('titled', '/work/t'),
      );
      await fixture.index.sync(fixture.corpus.sources);
      const filtered = await fixture.index.search('plover', { cwd: '/work/b' });
      expect(filtered.results.map((r) => [r.sessionId, r.facts])).toEqual([
        ['parent', { cwd: '/work/b', harness: 'strand' }],
      ]);
      const titled = (await fixture.index.search('plover', { cwd: '/work/t' })).results[0];
      expect(titled?.facts).toEqual({ cwd: '/work/t', harness: 'strand' });
    });

    it('finds nothing under a filter when the index files sessions under no facets', async () => {
      const bare = (await fixture.open({})).index;
      await stored('a1', '/work/a');
      await bare.sync(fixture.corpus.sources);
      const page = await bare.search('plover');
      expect(ids(page)).toEqual(['a1']);
      expect(page.results[0]!.facts).toEqual({});
      expect(ids(await bare.search('plover', { cwd: '/work/a' }))).toEqual([]);
      expect(ids(await bare.search('plover', { harness: 'strand' }))).toEqual([]);
    });
  });
}
