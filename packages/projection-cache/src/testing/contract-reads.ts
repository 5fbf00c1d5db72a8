import { SessionLogOffset } from '@strand/session';
import { describe, expect, it } from 'vitest';
import { ProjectionCacheError } from '../errors.js';
import { header, subject, turnEvents as events } from './fixtures.js';
import type { WithCache } from './harness.js';

/** The usage view of a log without usage records. */
const NO_TOKENS = { input: 0, output: 0, cacheCreation: 0, cacheRead: 0, reasoning: 0 };
const NO_USAGE = { own: NO_TOKENS, inherited: NO_TOKENS, byModel: [], byHour: [] };

const cut0 = SessionLogOffset(0);

/** Serving rows: identity, stateVersion, cursor and cut rules, and faults that must be misses. */
export function readBehaviour(withCache: WithCache): void {
  describe('cachedSnapshot', () => {
    it('serves every key from rows of the same identity, with zero log I/O', () =>
      withCache(({ cache, registry }) => {
        cache.put(subject(), cut0, registry.foldAll(header(), events).rows);
        expect(cache.cachedSnapshot(subject(), cut0)).toEqual(registry.foldAll(header(), events).snapshot);
      }));

    it('labels values from rows at different cuts with the lowest served cut − 1', () =>
      withCache(({ cache, registry }) => {
        const title = registry.foldAll(header(), events.slice(0, 2)).rows.title!;
        cache.put(subject(), cut0, { ...registry.foldAll(header(), events).rows, title });
        expect(cache.cachedSnapshot(subject(), cut0, ['title', 'usage'])).toEqual({
          asOfSeq: 1,
          values: { title: 'Hello', usage: NO_USAGE },
        });
        expect(cache.cachedSnapshot(subject(), cut0, ['usage'])?.asOfSeq).toBe(3);
      }));

    it('keeps an explicit null value through the cache and JSON', () =>
      withCache(({ cache, registry }) => {
        cache.put(subject(), cut0, registry.foldAll(header(), events.slice(0, 1)).rows);
        const hit = cache.cachedSnapshot(subject(), cut0, ['title', 'modelSelection']);
        expect(JSON.parse(JSON.stringify(hit))).toEqual({
          asOfSeq: 0,
          values: { title: null, modelSelection: null },
        });
      }));

    it('never serves a row with another stateVersion', () =>
      withCache(({ cache, registry }) => {
        const rows = registry.foldAll(header(), events).rows;
        cache.put(subject(), cut0, { title: { ...rows.title!, stateVersion: 2 } });
        expect(cache.cachedSnapshot(subject(), cut0, ['title'])).toBeUndefined();
        expect(cache.cachedStates(subject(), cut0)).toEqual({});
      }));

    it('never serves a recreated session (same id, new incarnation) the old rows', () =>
      withCache(({ cache, registry }) => {
        cache.put(subject('s1', 'old'), cut0, registry.foldAll(header(), events).rows);
        expect(cache.cachedSnapshot(subject('s1', 'new'), cut0)).toBeUndefined();
        cache.put(subject('s1', 'new'), cut0, registry.foldAll(header(), events.slice(0, 1)).rows);
        expect(cache.cachedSnapshot(subject('s1', 'new'), cut0, ['title'])?.values).toEqual({ title: null });
        expect(cache.cachedSnapshot(subject('s1', 'old'), cut0)).toBeUndefined(); // dropped, not just shadowed
      }));

    it('treats the inherited cut as part of the identity, not as a bound', () =>
      withCache(({ cache, registry }) => {
        cache.put(subject(), SessionLogOffset(2), registry.foldAll(header(), events).rows);
        expect(cache.cachedSnapshot(subject(), cut0)).toBeUndefined();
        expect(cache.cachedSnapshot(subject(), SessionLogOffset(2), ['title'])?.values).toEqual({
          title: 'Hello',
        });
      }));

    it('never serves a row whose cut lies beyond a cursor the caller knows', () =>
      withCache(({ cache, registry }) => {
        cache.put(subject(), cut0, registry.foldAll(header(), events).rows);
        expect(
          cache.cachedSnapshot(subject(), cut0, ['title'], { cursor: SessionLogOffset(3) }),
        ).toBeUndefined();
        expect(
          cache.cachedSnapshot(subject(), cut0, ['title'], { cursor: SessionLogOffset(4) }),
        ).toBeDefined();
      }));

    it('a row whose view throws is a miss, not an error; the other keys are still served', () =>
      withCache(({ cache, registry, logger }) => {
        const rows = registry.foldAll(header(), events).rows;
        cache.put(subject(), cut0, {
          ...rows,
          'test/strict': { ...rows['test/strict']!, state: { n: 'poison' } },
        });
        expect(cache.cachedSnapshot(subject(), cut0, ['test/strict'])).toBeUndefined();
        expect(cache.cachedSnapshot(subject(), cut0, ['test/strict', 'title'])?.values).toEqual({
          title: 'Hello',
        });
        expect(Object.keys(cache.cachedStates(subject(), cut0))).not.toContain('test/strict');
        expect(logger.entries.map((e) => e.message)).toContainEqual(expect.stringMatching(/view threw/));
      }));

    it('a row another writer left as text that is not JSON is a miss, not an error', () =>
      withCache(async (t) => {
        t.cache.put(subject(), cut0, t.registry.foldAll(header(), events).rows);
        await t.settle();
        const cache = await t.overwriteState('s1', 'title', '[');
        await cache.prefetch(['s1']);
        expect(cache.cachedSnapshot(subject(), cut0, ['title'])).toBeUndefined();
        expect(cache.cachedSnapshot(subject(), cut0, ['title', 'usage'])?.values).toEqual({
          usage: NO_USAGE,
        });
        expect(cache.cachedStates(subject(), cut0).title).toBeUndefined();
      }));

    it('never serves a key that is not registered, and misses quietly after close', () =>
      withCache(({ cache, registry }) => {
        cache.put(subject(), cut0, {
          ...registry.foldAll(header(), events).rows,
          ghost: { stateVersion: 1, cut: SessionLogOffset(4), state: 1 },
        });
        expect(cache.cachedSnapshot(subject(), cut0, ['ghost'])).toBeUndefined();
        cache.close();
        cache.close(); // idempotent
        expect(cache.cachedSnapshot(subject(), cut0)).toBeUndefined();
        expect(cache.cachedStates(subject(), cut0)).toEqual({});
        expect(() => cache.put(subject(), cut0, {})).toThrow(
          expect.objectContaining({ code: 'PROJECTION_CACHE_CLOSED' }) as Error,
        );
        expect(() => cache.forget(header().id)).toThrow(ProjectionCacheError);
      }));
  });

  describe('cachedValues', () => {
    it('serves one key for many sessions exactly as cachedSnapshot serves each, misses absent', () =>
      withCache(async (t) => {
        const put = (id: string, incarnation: string, upTo: number) =>
          t.cache.put(
            subject(id, incarnation),
            cut0,
            t.registry.foldAll(header(id), events.slice(0, upTo)).rows,
          );
        put('a', 'inc-1', 4);
        put('b', 'inc-1', 2);
        put('c', 'inc-old', 4); // asked for under another incarnation: a miss
        put('d', 'inc-1', 4); // not asked for
        put('e', 'inc-1', 4);
        await t.settle();
        const cache = await t.overwriteState('e', 'title', 'not json'); // a miss, never a verdict
        await cache.prefetch(['a', 'b', 'c', 'd', 'e', 'absent']);
        const asked = [subject('a'), subject('b'), subject('c', 'inc-new'), subject('e'), subject('absent')];
        for (const key of ['title', 'usage']) {
          const expected = new Map<string, unknown>();
          for (const s of asked) {
            const hit = cache.cachedSnapshot(s, cut0, [key]);
            if (hit !== undefined) expected.set(s.header.id, hit.values[key as 'title']);
          }
          expect(cache.cachedValues(key, asked)).toEqual(expected);
        }
        expect([...cache.cachedValues('title', asked).keys()].sort()).toEqual(['a', 'b']);
        expect(cache.cachedValues('test/unregistered', asked).size).toBe(0);
        expect(cache.cachedValues('title', asked, SessionLogOffset(1)).size).toBe(0);
      }));
  });

  describe('cachedStates', () => {
    it('hands restorable rows to an exact cold read, which folds only the events after their cut', () =>
      withCache(({ cache, registry }) => {
        cache.put(subject(), cut0, registry.foldAll(header(), events.slice(0, 2)).rows);
        const rows = cache.cachedStates(subject(), cut0);
        const from = registry.restoreStart(rows, SessionLogOffset(events.length));
        expect(from).toBe(2);
        const restored = registry.restore({ header: header(), rows, events: events.slice(from), from });
        expect(restored).toMatchObject({ kind: 'restored', refolded: [] });
        if (restored.kind === 'restored')
          expect(restored.projection.snapshot).toEqual(registry.foldAll(header(), events).snapshot);
      }));

    it('a poisoned or unreadable row never becomes a verdict: restore refolds and gets the right value', () =>
      withCache(async (t) => {
        t.cache.put(subject(), cut0, t.registry.foldAll(header(), events).rows);
        await t.settle();
        await t.overwriteState('s1', 'test/strict', '{"n":"x"}');
        const cache = await t.overwriteState('s1', 'usage', 'nope');
        await cache.prefetch(['s1']);
        const restored = t.registry.restore({
          header: header(),
          rows: cache.cachedStates(subject(), cut0),
          events,
        });
        expect(restored).toMatchObject({ kind: 'restored', refolded: ['usage', 'test/strict'] });
        if (restored.kind === 'restored')
          expect(restored.projection.snapshot).toEqual(t.registry.foldAll(header(), events).snapshot);
      }));
  });
}
