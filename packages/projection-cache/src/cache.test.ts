import { BUILT_IN_UNITS, ProjectionRegistry } from '@strand/projection';
import { SessionLogOffset } from '@strand/session';
import { describe, expect, it } from 'vitest';
import { ProjectionCache } from './cache.js';
import type { CacheRowStore } from './row-store.js';
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
