import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { BUILT_IN_UNITS, ProjectionRegistry } from '@strand/projection';
import { Session, SessionLogOffset, SessionSeq, type SessionEvent } from '@strand/session';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProjectionCache } from './cache.js';
import { ProjectionCacheError } from './errors.js';
import { FakeDurableLog } from './testing/fake-log.js';
import { header, recordingLogger, subject } from './testing/fixtures.js';
import { CacheWritePolicy } from './write-policy.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'strand-projection-cache-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const cut0 = SessionLogOffset(0);
const registry = () => new ProjectionRegistry({ units: BUILT_IN_UNITS });
const events: SessionEvent[] = [
  { type: 'turn/start', seq: SessionSeq(0), time: 1, data: {} },
  { type: 'session/title', seq: SessionSeq(1), time: 2, data: { title: 'Kept' } },
];

describe('projection cache on a SQLite file', () => {
  it('serves rows after the database is closed and opened again', () => {
    const path = join(dir, 'cache.db');
    const r = registry();
    const first = ProjectionCache.open({ path, registry: r, logger: recordingLogger() });
    first.put(subject(), cut0, r.foldAll(header(), events).rows);
    first.close();
    const second = ProjectionCache.open({ path, registry: r, logger: recordingLogger() });
    expect(second.cachedSnapshot(subject(), cut0, ['title', 'listMetadata'])).toEqual({
      asOfSeq: 1,
      values: { title: 'Kept', listMetadata: { blank: false, lastPromptAt: null } },
    });
    second.close();
  });

  it('a row corrupted on disk by another writer is a miss', () => {
    const path = join(dir, 'cache.db');
    const r = registry();
    const cache = ProjectionCache.open({ path, registry: r, logger: recordingLogger() });
    cache.put(subject(), cut0, r.foldAll(header(), events).rows);
    const other = new Database(path);
    other.prepare("UPDATE projection_rows SET state = '[' WHERE key = 'title'").run();
    other.close();
    expect(cache.cachedSnapshot(subject(), cut0, ['title'])).toBeUndefined();
    expect(cache.cachedSnapshot(subject(), cut0, ['title', 'usage'])?.values).toEqual({
      usage: { input: 0, output: 0 },
    });
    cache.close();
  });

  it('refuses a database written by a newer cache schema', () => {
    const path = join(dir, 'newer.db');
    const db = new Database(path);
    db.pragma('user_version = 99');
    db.close();
    expect(() => ProjectionCache.open({ path, registry: registry() })).toThrow(
      expect.objectContaining({ code: 'PROJECTION_CACHE_SCHEMA_UNSUPPORTED' }) as Error,
    );
  });

  it('fails to open a path that cannot hold a database with PROJECTION_CACHE_OPEN_FAILED', () => {
    try {
      ProjectionCache.open({ path: join(dir, 'missing', 'nested', 'cache.db'), registry: registry() });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ProjectionCacheError);
      expect((error as ProjectionCacheError).code).toBe('PROJECTION_CACHE_OPEN_FAILED');
    }
  });

  it('the write policy persists a live session at turn end, readable by another connection', async () => {
    const path = join(dir, 'live.db');
    const r = registry();
    const cache = ProjectionCache.open({ path, registry: r, logger: recordingLogger() });
    const log = new FakeDurableLog();
    const policy = new CacheWritePolicy({ registry: r, cache, flush: log.flush, logger: recordingLogger() });
    const session = new Session({ header: header(), writer: log.writerFor('s1'), incarnation: 'inc-1' });
    r.track(session);
    const appended = session.append([
      { type: 'turn/start', data: {} },
      { type: 'session/title', data: { title: 'Live' } },
      { type: 'turn/end', data: { reason: 'completed' } },
    ]);
    await new Promise<void>((resolve) => setImmediate(resolve));
    log.settle();
    await appended;
    await policy.drain();
    const reader = ProjectionCache.open({ path, registry: r, logger: recordingLogger() });
    expect(reader.cachedSnapshot(subject(), cut0, ['title'])).toEqual({
      asOfSeq: 2,
      values: { title: 'Live' },
    });
    reader.close();
    cache.close();
    policy.dispose();
  });
});
