import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { BUILT_IN_UNITS, ProjectionRegistry } from '@strand/projection';
import { describe, expect, it } from 'vitest';
import { ProjectionCache } from './cache.js';
import { ProjectionCacheError } from './errors.js';
import type { CacheRow } from './row-store.js';
import { SqliteCacheRowStore } from './sqlite-row-store.js';
import { SessionLogOffset, silentLogger, type SessionHeader } from '@strand/session';
import { listIndexContract } from './testing/contract-list.js';
import { header, subject, turnEvents } from './testing/fixtures.js';
import { projectionCacheContract } from './testing/contract.js';
import type { OpenCacheUnderTest } from './testing/harness.js';

const sqliteFile: OpenCacheUnderTest = async ({ registry, logger }) => {
  const dir = mkdtempSync(join(tmpdir(), 'strand-projection-cache-'));
  const path = join(dir, 'cache.db');
  let cache = ProjectionCache.open({ path, registry, logger });
  return Promise.resolve({
    get cache() {
      return cache;
    },
    // Every put is committed before it returns.
    settle: () => Promise.resolve(),
    reopen() {
      cache.close();
      cache = ProjectionCache.open({ path, registry, logger });
      return Promise.resolve(cache);
    },
    overwriteState(sessionId, key, stateText) {
      // Another connection: what a second process or a damaged file looks like to this one.
      const other = new Database(path);
      try {
        other
          .prepare('UPDATE projection_rows SET state = ? WHERE session_id = ? AND key = ?')
          .run(stateText, sessionId, key);
      } finally {
        other.close();
      }
      return Promise.resolve(cache);
    },
    dispose() {
      cache.close();
      rmSync(dir, { recursive: true, force: true });
      return Promise.resolve();
    },
  });
};

projectionCacheContract('SQLite file', sqliteFile);
listIndexContract('SQLite file', sqliteFile);

describe('projection cache on a SQLite file', () => {
  const registry = () => new ProjectionRegistry({ units: BUILT_IN_UNITS });

  it('writes a batch in one commit: a throw out of it leaves none of its rows and tells no listener', async () => {
    const under = await sqliteFile({ registry: registry(), logger: silentLogger });
    try {
      const { cache } = under;
      const rows = (id: string) => registry().foldAll(header(id), turnEvents).rows;
      const told: string[] = [];
      cache.onListChanged((id) => told.push(id));
      expect(() =>
        cache.batch(() => {
          cache.put(subject('s1'), SessionLogOffset(0), rows('s1'));
          cache.put(subject('s2'), SessionLogOffset(0), rows('s2'));
          throw new Error('the batch broke');
        }),
      ).toThrow('the batch broke');
      expect(told).toEqual([]);
      const reopened = await under.reopen();
      expect(reopened.cachedSnapshot(subject('s1'), SessionLogOffset(0))).toBeUndefined();
      expect(reopened.cachedSnapshot(subject('s2'), SessionLogOffset(0))).toBeUndefined();
    } finally {
      await under.dispose();
    }
  });

  it('undoes the whole batch when a write in it fails part-way (fault injection)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'strand-projection-cache-'));
    const store = SqliteCacheRowStore.open(join(dir, 'cache.db'));
    try {
      const row = (id: string): CacheRow => [`k-${id}`, 1, 3, '{"n":1}'];
      // A list row whose header cannot be written as JSON: the row store's rows are written, then
      // its list row is refused — the write failed part-way.
      const broken = {
        header: { ...header('s2'), extra: 1n } as unknown as SessionHeader,
        incarnation: 'inc-1',
      };
      expect(() =>
        store.batch(() => {
          store.write('s1', 'inc-1', 0, [row('s1')], { header: header('s1'), incarnation: 'inc-1' });
          expect(() => store.write('s2', 'inc-1', 0, [row('s2')], broken)).toThrow();
        }),
      ).toThrow('a write inside the batch failed part-way');
      expect(store.read('s1', 'inc-1', 0)).toEqual([]);
      expect(store.read('s2', 'inc-1', 0)).toEqual([]);
      // Outside a batch, the same failure undoes only its own write.
      store.write('s1', 'inc-1', 0, [row('s1')], { header: header('s1'), incarnation: 'inc-1' });
      expect(() => store.write('s2', 'inc-1', 0, [row('s2')], broken)).toThrow();
      expect(store.read('s1', 'inc-1', 0)).toEqual([row('s1')]);
      expect(store.read('s2', 'inc-1', 0)).toEqual([]);
    } finally {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps the rest of a batch when one put in it fails and is caught', async () => {
    const under = await sqliteFile({ registry: registry(), logger: silentLogger });
    try {
      const { cache } = under;
      cache.batch(() => {
        cache.put(subject('s1'), SessionLogOffset(0), registry().foldAll(header('s1'), turnEvents).rows);
        expect(() =>
          cache.put(subject('s2'), SessionLogOffset(0), {
            title: { stateVersion: 1, cut: SessionLogOffset(1), state: undefined },
          }),
        ).toThrow(expect.objectContaining({ code: 'PROJECTION_CACHE_WRITE_FAILED' }) as Error);
      });
      const reopened = await under.reopen();
      expect(reopened.cachedSnapshot(subject('s1'), SessionLogOffset(0), ['title'])?.values).toEqual({
        title: 'Hello',
      });
      expect(reopened.cachedSnapshot(subject('s2'), SessionLogOffset(0))).toBeUndefined();
    } finally {
      await under.dispose();
    }
  });

  it('refuses a database written by a newer cache schema', () => {
    const dir = mkdtempSync(join(tmpdir(), 'strand-projection-cache-'));
    try {
      const path = join(dir, 'newer.db');
      const db = new Database(path);
      db.pragma('user_version = 99');
      db.close();
      expect(() => ProjectionCache.open({ path, registry: registry() })).toThrow(
        expect.objectContaining({ code: 'PROJECTION_CACHE_SCHEMA_UNSUPPORTED' }) as Error,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('fails to open a path that cannot hold a database with PROJECTION_CACHE_OPEN_FAILED', () => {
    const dir = mkdtempSync(join(tmpdir(), 'strand-projection-cache-'));
    try {
      ProjectionCache.open({ path: join(dir, 'missing', 'nested', 'cache.db'), registry: registry() });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ProjectionCacheError);
      expect((error as ProjectionCacheError).code).toBe('PROJECTION_CACHE_OPEN_FAILED');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
