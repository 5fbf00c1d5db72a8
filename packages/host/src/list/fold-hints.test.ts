import { ProjectionRegistry } from '@strand/projection';
import { ProjectionCache } from '@strand/projection-cache';
import type { SessionQuery } from '@strand/query';
import { SessionId, SessionLogOffset, newSessionHeader, silentLogger } from '@strand/session';
import { describe, expect, it } from 'vitest';
import { foldUnfoldedListHints } from './fold-hints.js';

/** Folding reads the index, never a walk over persistence. */
const noWalk = {
  listChunks: (): never => {
    throw new Error('folding walks no persistence');
  },
};

const header = (id: string) => newSessionHeader({ id: SessionId(id), createdAt: 1_000 });

/**
 * A cache holding `folded` rows with hints and usage and `unknown` rows with header facts only;
 * `paged: false` hides the index's `unfoldedIds`, as a store without it (PostgreSQL's) has none.
 */
function cacheWith(folded: string[], unknown: string[], paged: boolean) {
  const cache = ProjectionCache.open({ path: ':memory:', registry: new ProjectionRegistry() });
  for (const id of folded)
    cache.noteSession(
      { header: header(id), incarnation: 'i1' },
      { asOfSeq: 0, values: {} },
      { asOfSeq: 0, byHour: [] },
    );
  for (const id of unknown) cache.noteSession({ header: header(id), incarnation: 'i1' });
  if (!paged) Object.defineProperty(cache.listIndex!, 'unfoldedIds', { value: undefined });
  return cache;
}

/** A query whose every observation is a cold fold at seq 0, except `failing` ids; records what it observed. */
function coldQuery(failing: ReadonlySet<string> = new Set()) {
  const observed: string[] = [];
  const query: Pick<SessionQuery, 'observeSession'> = {
    observeSession: (id) => {
      observed.push(id);
      if (failing.has(id)) return Promise.reject(new Error(`${id} cannot be read`));
      return Promise.resolve({
        source: 'cold',
        incarnation: 'i1',
        header: header(id),
        cursor: SessionLogOffset(1),
        projections: { values: { title: id, usage: { byHour: [] } } },
        dispose: () => undefined,
      } as unknown as Awaited<ReturnType<SessionQuery['observeSession']>>);
    },
  };
  return { query, observed };
}

describe('foldUnfoldedListHints', () => {
  for (const paged of [true, false])
    it(`folds exactly the stored rows whose hints are unknown, skipping live sessions (${paged ? 'unfoldedIds pages' : 'identities filtered'})`, async () => {
      const cache = cacheWith(['a', 'd'], ['b', 'c', 'e', 'f'], paged);
      const { query, observed } = coldQuery(new Set(['e']));
      const live = new Set(['c']);
      const deps = {
        persistence: noWalk,
        query,
        cache,
        store: { has: (id: SessionId) => live.has(id) },
        logger: silentLogger,
      };
      // Pages of 2: the walk over what is left to fold goes on past the first page.
      expect(await foldUnfoldedListHints(deps, () => false, 2)).toBe(2);
      expect(observed).toEqual(['b', 'e', 'f']);
      const rows = await cache.listIndex!.identities({ after: '', limit: 10 });
      const unknown = rows.filter((row) => row.asOfSeq === null).map((row) => row.sessionId);
      // The failed fold and the live session keep header facts; a second run retries the failed one only.
      expect(unknown).toEqual(['c', 'e']);
      observed.length = 0;
      expect(await foldUnfoldedListHints(deps, () => false, 2)).toBe(0);
      expect(observed).toEqual(['e']);
      cache.close();
    });

  it('stops between sessions once the host closes', async () => {
    const cache = cacheWith([], ['a', 'b', 'c'], true);
    const { query, observed } = coldQuery();
    const deps = {
      persistence: noWalk,
      query,
      cache,
      store: { has: () => false },
      logger: silentLogger,
    };
    expect(await foldUnfoldedListHints(deps, () => observed.length >= 1)).toBe(1);
    expect(observed).toEqual(['a']);
    cache.close();
  });
});
