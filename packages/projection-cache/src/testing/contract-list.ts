import fc from 'fast-check';
import { SessionId, SessionLogOffset } from '@strand/session';
import { describe, expect, it } from 'vitest';
import type { ListIndexStore } from '../list-index/list-index-store.js';
import { listColumnsOf, type ListIndexFilter, type ListIndexRow } from '../list-index/list-row.js';
import { event, header, listHeader, subject, turnEvents as events } from './fixtures.js';
import { usageBehaviour } from './contract-usage.js';
import { cacheRunner, type OpenCacheUnderTest, type WithCache } from './harness.js';

const cut0 = SessionLogOffset(0);

/**
 * The list index every cache store that keeps one must show (packages/projection-cache/README.md,
 * "List index"): rows written with the cache rows, never moved back, header rows that never erase
 * hints, deletes, and a page query equal to a brute-force filter-and-sort over the same rows.
 */
export function listIndexContract(name: string, open: OpenCacheUnderTest): void {
  const withCache = cacheRunner(open);
  describe(`list index contract: ${name}`, () => {
    writes(withCache);
    pages(withCache);
    usageBehaviour(withCache);
  });
}

function indexOf(t: { cache: { listIndex: ListIndexStore | undefined } }): ListIndexStore {
  const index = t.cache.listIndex;
  if (index === undefined) throw new Error('this cache keeps no list index');
  return index;
}

async function only(index: ListIndexStore, id: string): Promise<ListIndexRow | undefined> {
  const [row] = await index.rows([id]);
  return row;
}

function writes(withCache: WithCache): void {
  describe('list rows', () => {
    it('put writes the list row beside the rows: header facts and the hints at the lowest hint cut', () =>
      withCache(async (t) => {
        t.cache.put(subject(), cut0, t.registry.foldAll(header(), events).rows);
        await t.settle();
        expect(await only(indexOf(t), 's1')).toEqual({
          header: header(),
          incarnation: 'inc-1',
          hints: { asOfSeq: 3, values: expect.objectContaining({ title: 'Hello' }) as unknown },
        });
        // The row survives a restart.
        await t.reopen();
        expect((await only(indexOf(t), 's1'))?.hints?.values.title).toBe('Hello');
      }));

    it('a row never moves back to an older cut; another incarnation replaces it', () =>
      withCache(async (t) => {
        t.cache.put(subject(), cut0, t.registry.foldAll(header(), events).rows);
        t.cache.put(subject(), cut0, t.registry.foldAll(header(), events.slice(0, 1)).rows);
        await t.settle();
        expect((await only(indexOf(t), 's1'))?.hints?.asOfSeq).toBe(3);
        t.cache.put(subject('s1', 'inc-2'), cut0, t.registry.foldAll(header(), events.slice(0, 1)).rows);
        await t.settle();
        expect(await only(indexOf(t), 's1')).toMatchObject({ incarnation: 'inc-2', hints: { asOfSeq: 0 } });
      }));

    it('noteSession gives a session its row at once and never erases folded hints', () =>
      withCache(async (t) => {
        t.cache.noteSession(subject('s2'));
        await t.settle();
        expect(await only(indexOf(t), 's2')).toEqual({ header: header('s2'), incarnation: 'inc-1' });
        t.cache.put(subject('s2'), cut0, t.registry.foldAll(header('s2'), events).rows);
        t.cache.noteSession(subject('s2'));
        await t.settle();
        expect((await only(indexOf(t), 's2'))?.hints?.values.title).toBe('Hello');
      }));

    it('forget (a failed fold) keeps the row with unknown hints; dropSession (deleted) removes it', () =>
      withCache(async (t) => {
        const lastPrompt = [
          ...events.slice(0, 2),
          event(2, 'user/message', { content: 'hi', author: 'human' }),
        ];
        t.cache.put(subject(), cut0, t.registry.foldAll(header(), lastPrompt).rows);
        t.cache.forget(SessionId('s1'));
        await t.settle();
        expect(await only(indexOf(t), 's1')).toEqual({ header: header(), incarnation: 'inc-1' });
        // Its sort key fell back to createdAt with the hints.
        expect(
          (await indexOf(t).page({ filter: {}, after: { at: 1, id: '' }, limit: 5 })).map((r) => r.header.id),
        ).toEqual(['s1']);
        t.cache.dropSession(SessionId('s1'));
        await t.settle();
        expect(await only(indexOf(t), 's1')).toBeUndefined();
        expect((await indexOf(t).identities({ after: '', limit: 10 })).length).toBe(0);
      }));
  });
}

const IDS = ['a', 'b', 'c', 'ab', 'ba', 'abc', 'z', 'é', 'a\u00e9'] as const;
const CWDS = ['/p', '/q', '/w/p/', 'C:\\w\\q', 'p', '/'] as const;
/** Last folder names of `CWDS` (`''`: of `/`), and one none has. */
const PROJECT_NAMES = ['p', 'q', 'w', '', 'x'] as const;
const HARNESSES = ['strand', 'codex'] as const;

const rowArb = (id: string): fc.Arbitrary<ListIndexRow> =>
  fc
    .record({
      createdAt: fc.integer({ min: 0, max: 5 }),
      cwd: fc.option(fc.constantFrom(...CWDS), { nil: undefined }),
      harness: fc.constantFrom(...HARNESSES),
      parent: fc.option(fc.constantFrom(...IDS), { nil: undefined }),
      subagent: fc.boolean(),
      title: fc.option(fc.constantFrom('alpha', 'alps', 'Al', 'al%', 'b', ''), { nil: undefined }),
      lastPromptAt: fc.option(fc.integer({ min: 0, max: 5 }), { nil: undefined }),
      folded: fc.boolean(),
    })
    .map((r) => {
      const header = listHeader(id, r);
      const values = {
        ...(r.title === undefined ? {} : { title: r.title }),
        ...(r.lastPromptAt === undefined
          ? {}
          : { listMetadata: { blank: false, lastPromptAt: r.lastPromptAt } }),
      };
      return { header, incarnation: 'inc-1', ...(r.folded ? { hints: { asOfSeq: 2, values } } : {}) };
    });

const sometimes = <T>(value: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> =>
  fc.oneof({ arbitrary: fc.constant(undefined), weight: 2 }, { arbitrary: value, weight: 1 });

const filterArb: fc.Arbitrary<ListIndexFilter> = fc
  .record({
    cwd: sometimes(fc.constantFrom(...CWDS)),
    projectName: sometimes(fc.constantFrom(...PROJECT_NAMES)),
    harness: sometimes(fc.constantFrom(...HARNESSES)),
    parent: sometimes(fc.option(fc.constantFrom(...IDS), { nil: null })),
    titlePrefix: sometimes(fc.constantFrom('al', 'alp', 'Al', 'al%', '', 'x')),
  })
  .map((filter) => Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== undefined)));

/** The reference: every row, filtered and sorted here without the store's query. */
function bruteIds(rows: readonly ListIndexRow[], filter: ListIndexFilter): string[] {
  // The last folder name by splitting the path, not by the store's helper.
  const folderName = (cwd: string | null) =>
    cwd === null
      ? null
      : (cwd
          .replace(/[/\\]+$/, '')
          .split(/[/\\]/)
          .at(-1) ?? '');
  return rows
    .map(listColumnsOf)
    .filter(
      (c) =>
        (filter.cwd === undefined || c.cwd === filter.cwd) &&
        (filter.projectName === undefined || folderName(c.cwd) === filter.projectName) &&
        (filter.harness === undefined || c.harness === filter.harness) &&
        (filter.parent === undefined || c.parent === filter.parent) &&
        (filter.titlePrefix === undefined || (c.title !== null && c.title.startsWith(filter.titlePrefix))),
    )
    .sort((a, b) => b.activityAt - a.activityAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((c) => c.id);
}

function pages(withCache: WithCache): void {
  describe('page', () => {
    // One store for every run, emptied by `clear` first: a fresh store per run costs a database
    // per run on a server engine.
    it('paging through with any page size yields the brute-force filtered, ordered ids, each once', () =>
      withCache((t) =>
        fc.assert(
          fc.asyncProperty(
            fc.uniqueArray(fc.constantFrom(...IDS)).chain((ids) => fc.tuple(...ids.map(rowArb))),
            filterArb,
            fc.integer({ min: 1, max: 4 }),
            async (rows, filter, limit) => {
              const index = indexOf(t);
              index.clear();
              for (const row of rows) index.upsert(row);
              await t.settle();
              const listed: string[] = [];
              let after: { at: number; id: string } | undefined;
              // More pages than rows means a page repeated itself: fail rather than loop.
              for (let n = 0; n <= rows.length; n++) {
                const page = await index.page({ filter, after, limit });
                expect(page.length).toBeLessThanOrEqual(limit);
                listed.push(...page.map((row) => row.header.id));
                const last = page.at(-1);
                if (page.length < limit || last === undefined) break;
                const columns = listColumnsOf(last);
                after = { at: columns.activityAt, id: columns.id };
              }
              expect(listed).toEqual(bruteIds(rows, filter));
            },
          ),
          { numRuns: 40 },
        ),
      ));
  });
}
