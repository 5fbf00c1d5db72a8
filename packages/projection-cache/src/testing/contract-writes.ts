import { Session, SessionLogOffset } from '@strand/session';
import { describe, expect, it } from 'vitest';
import type { ProjectionCacheError } from '../errors.js';
import { CacheWritePolicy } from '../write-policy.js';
import { FakeDurableLog } from './fake-log.js';
import { header, subject, turnEvents as events } from './fixtures.js';
import type { WithCache } from './harness.js';

const cut0 = SessionLogOffset(0);

/** Writing rows: the upsert and identity rules, and that what was written survives a restart. */
export function writeBehaviour(withCache: WithCache): void {
  describe('put and forget', () => {
    it('never moves a row back to an older cut of the same stateVersion', () =>
      withCache(async (t) => {
        t.cache.put(subject(), cut0, t.registry.foldAll(header(), events).rows);
        t.cache.put(subject(), cut0, { title: t.registry.foldAll(header(), events.slice(0, 1)).rows.title! });
        const expected = { asOfSeq: 3, values: { title: 'Hello' } };
        expect(t.cache.cachedSnapshot(subject(), cut0, ['title'])).toEqual(expected);
        const reopened = await t.reopen();
        await reopened.prefetch(['s1']);
        expect(reopened.cachedSnapshot(subject(), cut0, ['title'])).toEqual(expected);
      }));

    it('moves a row to an older cut when its stateVersion changed (a new unit version rewrote it)', () =>
      withCache(async (t) => {
        const full = t.registry.foldAll(header(), events).rows;
        t.cache.put(subject(), cut0, { title: { ...full.title!, stateVersion: 0 } });
        t.cache.put(subject(), cut0, { title: t.registry.foldAll(header(), events.slice(0, 1)).rows.title! });
        expect(t.cache.cachedSnapshot(subject(), cut0, ['title'])).toEqual({
          asOfSeq: 0,
          values: { title: null },
        });
        const reopened = await t.reopen();
        await reopened.prefetch(['s1']);
        expect(reopened.cachedSnapshot(subject(), cut0, ['title'])).toEqual({
          asOfSeq: 0,
          values: { title: null },
        });
      }));

    it('refuses a state that is not JSON with PROJECTION_CACHE_WRITE_FAILED', () =>
      withCache(({ cache }) => {
        try {
          cache.put(subject(), cut0, {
            title: { stateVersion: 1, cut: SessionLogOffset(1), state: undefined },
          });
          expect.unreachable();
        } catch (error) {
          expect((error as ProjectionCacheError).toJSON()).toMatchObject({
            code: 'PROJECTION_CACHE_WRITE_FAILED',
            sessionId: 's1',
          });
        }
      }));

    it('forget drops every row of a session id, and only of that id', () =>
      withCache(async (t) => {
        t.cache.put(subject('s1'), cut0, t.registry.foldAll(header(), events).rows);
        t.cache.put(subject('s2'), cut0, t.registry.foldAll(header('s2'), events).rows);
        t.cache.forget(header().id);
        expect(t.cache.cachedSnapshot(subject(), cut0)).toBeUndefined();
        expect(t.cache.cachedSnapshot(subject('s2'), cut0, ['title'])?.values).toEqual({ title: 'Hello' });
        const reopened = await t.reopen();
        await reopened.prefetch(['s1', 's2']);
        expect(reopened.cachedSnapshot(subject(), cut0)).toBeUndefined();
        expect(reopened.cachedSnapshot(subject('s2'), cut0, ['title'])?.values).toEqual({ title: 'Hello' });
      }));
  });

  describe('batch', () => {
    it('serves every put and forget of a batch after it, and tells list listeners after its work', () =>
      withCache(async (t) => {
        t.cache.put(subject('s3'), cut0, t.registry.foldAll(header('s3'), events).rows);
        const told: string[] = [];
        let inside = true;
        t.cache.onListChanged((id) => told.push(`${id}${inside ? ' (inside)' : ''}`));
        const result = t.cache.batch(() => {
          t.cache.put(subject('s1'), cut0, t.registry.foldAll(header(), events).rows);
          t.cache.put(subject('s2'), cut0, t.registry.foldAll(header('s2'), events).rows);
          t.cache.forget(header('s3').id);
          inside = false;
          return 'done';
        });
        expect(result).toBe('done');
        // A store that keeps no list index tells no one; one that does tells each write, after.
        if (t.cache.listIndex !== undefined) expect(told.sort()).toEqual(['s1', 's2', 's3']);
        else expect(told).toEqual([]);
        await t.settle();
        const reopened = await t.reopen();
        await reopened.prefetch(['s1', 's2', 's3']);
        for (const id of ['s1', 's2'])
          expect(reopened.cachedSnapshot(subject(id), cut0, ['title'])?.values).toEqual({ title: 'Hello' });
        expect(reopened.cachedSnapshot(subject('s3'), cut0)).toBeUndefined();
      }));
  });

  describe('durability', () => {
    it('a reopened cache serves a session once prefetched, and before that never a wrong row', () =>
      withCache(async (t) => {
        t.cache.put(subject(), cut0, t.registry.foldAll(header(), events).rows);
        const expected = { asOfSeq: 3, values: { title: 'Hello' } };
        const reopened = await t.reopen();
        // A store holding only some sessions in memory may miss here; a hit must be the stored row.
        const before = reopened.cachedSnapshot(subject(), cut0, ['title']);
        if (before !== undefined) expect(before).toEqual(expected);
        await reopened.prefetch(['s1', 'absent']);
        expect(reopened.cachedSnapshot(subject(), cut0, ['title'])).toEqual(expected);
        expect(reopened.cachedSnapshot(subject('absent'), cut0)).toBeUndefined();
        await reopened.prefetch([]);
        reopened.close();
        await expect(reopened.prefetch(['s1'])).resolves.toBeUndefined(); // closed: nothing to load
      }));

    it('serves rows after the cache is closed and opened again', () =>
      withCache(async (t) => {
        t.cache.put(subject(), cut0, t.registry.foldAll(header(), events.slice(0, 2)).rows);
        const reopened = await t.reopen();
        await reopened.prefetch(['s1']);
        expect(reopened.cachedSnapshot(subject(), cut0, ['title', 'listMetadata'])).toEqual({
          asOfSeq: 1,
          values: { title: 'Hello', listMetadata: { blank: false, lastPromptAt: null } },
        });
        expect(reopened.cachedStates(subject(), cut0).title?.cut).toBe(2);
      }));

    it('a recreated identity stays the only one after a restart', () =>
      withCache(async (t) => {
        t.cache.put(subject('s1', 'old'), cut0, t.registry.foldAll(header(), events).rows);
        t.cache.put(subject('s1', 'new'), SessionLogOffset(1), t.registry.foldAll(header(), events).rows);
        const reopened = await t.reopen();
        await reopened.prefetch(['s1']);
        expect(reopened.cachedSnapshot(subject('s1', 'old'), cut0)).toBeUndefined();
        expect(reopened.cachedSnapshot(subject('s1', 'new'), SessionLogOffset(1), ['title'])?.values).toEqual(
          {
            title: 'Hello',
          },
        );
      }));

    it('the write policy persists a live session at turn end, readable after a restart', () =>
      withCache(async (t) => {
        const log = new FakeDurableLog();
        const policy = new CacheWritePolicy({
          registry: t.registry,
          cache: t.cache,
          flush: log.flush,
          logger: t.logger,
        });
        const session = new Session({ header: header(), writer: log.writerFor('s1'), incarnation: 'inc-1' });
        t.registry.track(session);
        const appended = session.append([
          { type: 'turn/start', data: {} },
          { type: 'session/title', data: { title: 'Live' } },
          { type: 'turn/end', data: { reason: 'completed' } },
        ]);
        await new Promise<void>((resolve) => setImmediate(resolve));
        log.settle();
        await appended;
        await policy.drain();
        policy.dispose();
        const reopened = await t.reopen();
        await reopened.prefetch(['s1']);
        expect(reopened.cachedSnapshot(subject(), cut0, ['title'])).toEqual({
          asOfSeq: 2,
          values: { title: 'Live' },
        });
      }));
  });
}
