import { BUILT_IN_UNITS, ProjectionRegistry } from '@strand/projection';
import { SessionLogOffset } from '@strand/session';
import { describe, expect, it } from 'vitest';
import { ProjectionCache } from './cache.js';
import type { CacheRowStore } from './row-store.js';
import { SqliteCacheRowStore } from './sqlite-row-store.js';
import { header, recordingLogger, subject, turnEvents } from './testing/fixtures.js';

const cut0 = SessionLogOffset(0);

/** A store whose every operation fails: the engine-neutral rules must contain it. */
const brokenStore = (): CacheRowStore => ({
  isOpen: true,
  read: () => {
    throw new Error('disk gone');
  },
  write: () => {
    throw new Error('disk gone');
  },
  forget: () => {
    throw new Error('disk gone');
  },
  close: () => undefined,
});

describe('ProjectionCache over a failing row store', () => {
  const registry = new ProjectionRegistry({ units: BUILT_IN_UNITS });

  it('turns a failed read into a logged miss, never an exception', () => {
    const logger = recordingLogger();
    const cache = new ProjectionCache(brokenStore(), registry, { logger });
    expect(cache.cachedSnapshot(subject(), cut0)).toBeUndefined();
    expect(cache.cachedStates(subject(), cut0)).toEqual({});
    expect(logger.entries.map((e) => e.message)).toEqual([
      'row miss: reading rows failed',
      'row miss: reading rows failed',
    ]);
  });

  it('reads per session when listing one key fails, and serves the same values', () => {
    const sqlite = SqliteCacheRowStore.open(':memory:');
    const logger = recordingLogger();
    const failingKeyRead: CacheRowStore = {
      get isOpen() {
        return sqlite.isOpen;
      },
      read: (...args) => sqlite.read(...args),
      readKey: () => {
        throw new Error('disk gone');
      },
      write: (...args) => sqlite.write(...args),
      forget: (id) => sqlite.forget(id),
      close: () => sqlite.close(),
    };
    const direct = new ProjectionCache(sqlite, registry);
    const fallback = new ProjectionCache(failingKeyRead, registry, { logger });
    direct.put(subject('a'), cut0, registry.foldAll(header('a'), turnEvents).rows);
    direct.put(subject('b'), cut0, registry.foldAll(header('b'), turnEvents.slice(0, 1)).rows);
    const asked = [subject('a'), subject('b'), subject('c')];
    expect(fallback.cachedValues('title', asked)).toEqual(
      new Map<string, unknown>([
        ['a', 'Hello'],
        ['b', null],
      ]),
    );
    expect(direct.cachedValues('title', asked)).toEqual(fallback.cachedValues('title', asked));
    expect(logger.entries[0]?.message).toContain('reading the rows of one key failed');
    sqlite.close();
  });

  it('turns a failed write or forget into PROJECTION_CACHE_WRITE_FAILED with the cause kept', () => {
    const cache = new ProjectionCache(brokenStore(), registry, { logger: recordingLogger() });
    const rows = registry.foldAll(header(), turnEvents).rows;
    expect(() => cache.put(subject(), cut0, rows)).toThrow(
      expect.objectContaining({
        code: 'PROJECTION_CACHE_WRITE_FAILED',
        sessionId: 's1',
        cause: expect.objectContaining({ message: 'disk gone' }) as Error,
      }) as Error,
    );
    expect(() => cache.forget(header().id)).toThrow(
      expect.objectContaining({ code: 'PROJECTION_CACHE_WRITE_FAILED' }) as Error,
    );
  });
});
