import fc from 'fast-check';
import type { ListChunksOptions, PersistedSessionSummary, SessionPersistence } from '@strand/persistence';
import { ProjectionRegistry } from '@strand/projection';
import { ProjectionCache, type ListIdentity, type ListIdentityPage } from '@strand/projection-cache';
import type { SessionQuery } from '@strand/query';
import { SessionId, newSessionHeader, silentLogger } from '@strand/session';
import { describe, expect, it } from 'vitest';
import { reconcileListIndex } from './reconcile.js';

/**
 * Ids from units whose UTF-16 order differs from code point order (U+E000 sorts before U+1F600 by
 * code point, after it by code unit): a merge that compared with `<` would pair the wrong rows.
 */
const idArb = fc.string({
  unit: fc.constantFrom('a', 'b', '\uE000', '\u{1F600}'),
  minLength: 1,
  maxLength: 3,
});

interface Corpus {
  /** Stored sessions: id → incarnation. */
  readonly stored: ReadonlyMap<string, string>;
  /** Indexed rows: id → incarnation and whether its hints are folded. */
  readonly indexed: ReadonlyMap<string, { incarnation: string; folded: boolean }>;
  /** Sessions open in this host (not stored yet, or stored): never dropped, never folded here. */
  readonly live: ReadonlySet<string>;
}

const corpusArb: fc.Arbitrary<Corpus> = fc
  .record({
    stored: fc.uniqueArray(fc.tuple(idArb, fc.constantFrom('i1', 'i2')), {
      selector: ([id]) => id,
      maxLength: 30,
    }),
    indexed: fc.uniqueArray(fc.tuple(idArb, fc.constantFrom('i1', 'i2'), fc.boolean()), {
      selector: ([id]) => id,
      maxLength: 30,
    }),
    live: fc.uniqueArray(idArb, { maxLength: 5 }),
  })
  .map(({ stored, indexed, live }) => ({
    stored: new Map(stored),
    indexed: new Map(indexed.map(([id, incarnation, folded]) => [id, { incarnation, folded }])),
    live: new Set(live),
  }));

const summary = (id: string, incarnation: string): PersistedSessionSummary => ({
  header: newSessionHeader({ id: SessionId(id), createdAt: 1_000 }),
  incarnation,
  revision: `${incarnation}:0`,
  storedBytes: 0,
});

/** A persistence that walks `stored` in code point order and records every chunk it hands out. */
function chunkedPersistence(stored: ReadonlyMap<string, string>) {
  const chunks: number[] = [];
  // UTF-8 byte order is code point order: an oracle independent of `compareSessionIds`.
  const sorted = [...stored].sort(([a], [b]) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  const persistence: Pick<SessionPersistence, 'listChunks'> = {
    async *listChunks(options: ListChunksOptions) {
      for (let i = 0; i < sorted.length; i += options.chunk) {
        const chunk = sorted.slice(i, i + options.chunk).map(([id, incarnation]) => summary(id, incarnation));
        chunks.push(chunk.length);
        yield await Promise.resolve(chunk);
      }
    },
  };
  return { persistence, chunks };
}

/** A real cache over an in-memory SQLite list index holding `indexed`, its identity pages recorded. */
function indexedCache(indexed: Corpus['indexed']) {
  const cache = ProjectionCache.open({ path: ':memory:', registry: new ProjectionRegistry() });
  for (const [id, { incarnation, folded }] of indexed)
    cache.noteSession(
      { header: newSessionHeader({ id: SessionId(id), createdAt: 1_000 }), incarnation },
      folded ? { asOfSeq: 0, values: {} } : undefined,
      folded ? { asOfSeq: 0, byHour: [] } : undefined,
    );
  const index = cache.listIndex!;
  const pages: number[] = [];
  const identities = index.identities.bind(index);
  index.identities = async (page: ListIdentityPage) => {
    const rows = await identities(page);
    pages.push(rows.length);
    return rows;
  };
  return { cache, pages };
}

async function allIdentities(cache: ProjectionCache): Promise<Map<string, ListIdentity>> {
  const rows = await cache.listIndex!.identities({ after: '', limit: 1_000 });
  return new Map(rows.map((row) => [row.sessionId, row]));
}

/** What reconcile did before it walked in chunks: every summary and identity in memory at once. */
function bruteForce({ stored, indexed, live }: Corpus) {
  const noted = [...stored].filter(([id, incarnation]) => indexed.get(id)?.incarnation !== incarnation);
  const dropped = [...indexed.keys()].filter((id) => !stored.has(id) && !live.has(id));
  const unfolded = [...stored]
    .filter(([id, incarnation]) => {
      const row = indexed.get(id);
      return (row?.incarnation !== incarnation || !row.folded) && !live.has(id);
    })
    .map(([id]) => id);
  const rows = new Map<string, string>();
  for (const [id, row] of indexed) if (!dropped.includes(id)) rows.set(id, row.incarnation);
  for (const [id, incarnation] of stored) rows.set(id, incarnation);
  return { noted: noted.length, dropped: dropped.length, unfolded, rows };
}

const noQuery: Pick<SessionQuery, 'observeSession'> = {
  observeSession: () => Promise.reject(new Error('reconcile reads no log')),
};

describe('reconcileListIndex', () => {
  it('equals the whole-corpus reconcile over random stored and indexed sets, reading a chunk at a time', async () => {
    await fc.assert(
      fc.asyncProperty(corpusArb, fc.integer({ min: 1, max: 7 }), async (corpus, chunk) => {
        const { persistence, chunks } = chunkedPersistence(corpus.stored);
        const { cache, pages } = indexedCache(corpus.indexed);
        const store = { has: (id: SessionId) => corpus.live.has(id) };
        const result = await reconcileListIndex(
          { persistence, query: noQuery, cache, store, logger: silentLogger },
          chunk,
        );
        const largestRead = Math.max(0, ...chunks, ...pages);
        const expected = bruteForce(corpus);
        expect(result).toEqual({
          walked: true,
          noted: expected.noted,
          dropped: expected.dropped,
          unfolded: expected.unfolded.length,
        });
        // What is left to fold is read from the index (`foldUnfoldedListHints`): its unknown rows,
        // less the live sessions, are exactly the whole-corpus reconcile's unfolded sessions.
        const unknownRows = [...(await allIdentities(cache)).values()]
          .filter((row) => (row.asOfSeq === null || !row.usageKnown) && !corpus.live.has(row.sessionId))
          .map((row) => row.sessionId);
        expect(unknownRows.sort()).toEqual([...expected.unfolded].sort());
        const rows = await allIdentities(cache);
        expect(new Map([...rows].map(([id, row]) => [id, row.incarnation]))).toEqual(expected.rows);
        // Bounded: no read handed over more than a chunk; the corpus came in ⌈n / chunk⌉ chunks.
        expect(largestRead).toBeLessThanOrEqual(chunk);
        expect(chunks).toHaveLength(Math.ceil(corpus.stored.size / chunk));
        cache.close();
      }),
      { numRuns: 200 },
    );
  });

  it('fails instead of dropping rows when persistence walks out of id order', async () => {
    const { cache } = indexedCache(new Map([['b', { incarnation: 'i1', folded: true }]]));
    const persistence: Pick<SessionPersistence, 'listChunks'> = {
      async *listChunks() {
        yield await Promise.resolve([summary('b', 'i1'), summary('a', 'i1')]);
      },
    };
    const deps = { persistence, query: noQuery, cache, store: { has: () => false }, logger: silentLogger };
    await expect(reconcileListIndex(deps, 10)).rejects.toThrow(/not in id order/);
    expect([...(await allIdentities(cache)).keys()]).toEqual(['b']);
    cache.close();
  });
});
