import { SessionLogOffset, SessionSeq, type SessionEvent } from '@strand/session';
import { describe, expect, it } from 'vitest';
import { ProjectionCacheError } from './errors.js';
import { header, memoryCache, recordingLogger, subject } from './testing/fixtures.js';

const cut0 = SessionLogOffset(0);
const event = (seq: number, type: string, data: unknown): SessionEvent =>
  Object.freeze({ type, seq: SessionSeq(seq), time: 1_000 + seq, data: data as SessionEvent['data'] });
const events = [
  event(0, 'turn/start', {}),
  event(1, 'session/title', { title: 'Hello' }),
  event(2, 'user/message', { content: 'hi', author: 'human' }),
  event(3, 'turn/end', { reason: 'completed' }),
];

describe('cachedSnapshot', () => {
  it('serves every key from rows of the same identity, with zero log I/O', () => {
    const { cache, registry } = memoryCache();
    cache.put(subject(), cut0, registry.foldAll(header(), events).rows);
    const hit = cache.cachedSnapshot(subject(), cut0);
    expect(hit).toEqual(registry.foldAll(header(), events).snapshot);
  });

  it('labels values from rows at different cuts with the lowest served cut − 1', () => {
    const { cache, registry } = memoryCache();
    const title = registry.foldAll(header(), events.slice(0, 2)).rows.title!;
    cache.put(subject(), cut0, { ...registry.foldAll(header(), events).rows, title });
    expect(cache.cachedSnapshot(subject(), cut0, ['title', 'usage'])).toEqual({
      asOfSeq: 1,
      values: { title: 'Hello', usage: { input: 0, output: 0 } },
    });
    expect(cache.cachedSnapshot(subject(), cut0, ['usage'])?.asOfSeq).toBe(3);
  });

  it('never moves a row back to an older cut of the same stateVersion', () => {
    const { cache, registry } = memoryCache();
    cache.put(subject(), cut0, registry.foldAll(header(), events).rows);
    cache.put(subject(), cut0, { title: registry.foldAll(header(), events.slice(0, 1)).rows.title! });
    expect(cache.cachedSnapshot(subject(), cut0, ['title'])).toEqual({
      asOfSeq: 3,
      values: { title: 'Hello' },
    });
  });

  it('keeps an explicit null value through the cache and JSON', () => {
    const { cache, registry } = memoryCache();
    cache.put(subject(), cut0, registry.foldAll(header(), events.slice(0, 1)).rows);
    const hit = cache.cachedSnapshot(subject(), cut0, ['title', 'modelSelection']);
    expect(JSON.parse(JSON.stringify(hit))).toEqual({
      asOfSeq: 0,
      values: { title: null, modelSelection: null },
    });
  });

  it('never serves a row with another stateVersion', () => {
    const { cache, registry } = memoryCache();
    const rows = registry.foldAll(header(), events).rows;
    cache.put(subject(), cut0, { title: { ...rows.title!, stateVersion: 2 } });
    expect(cache.cachedSnapshot(subject(), cut0, ['title'])).toBeUndefined();
    expect(cache.cachedStates(subject(), cut0)).toEqual({});
  });

  it('never serves a recreated session (same id, new incarnation) the old rows', () => {
    const { cache, registry } = memoryCache();
    cache.put(subject('s1', 'old'), cut0, registry.foldAll(header(), events).rows);
    expect(cache.cachedSnapshot(subject('s1', 'new'), cut0)).toBeUndefined();
    cache.put(subject('s1', 'new'), cut0, registry.foldAll(header(), events.slice(0, 1)).rows);
    expect(cache.cachedSnapshot(subject('s1', 'new'), cut0, ['title'])?.values).toEqual({ title: null });
    expect(cache.cachedSnapshot(subject('s1', 'old'), cut0)).toBeUndefined(); // dropped, not just shadowed
  });

  it('treats the inherited cut as part of the identity, not as a bound', () => {
    const { cache, registry } = memoryCache();
    cache.put(subject(), SessionLogOffset(2), registry.foldAll(header(), events).rows);
    expect(cache.cachedSnapshot(subject(), cut0)).toBeUndefined();
    expect(cache.cachedSnapshot(subject(), SessionLogOffset(2), ['title'])?.values).toEqual({
      title: 'Hello',
    });
  });

  it('never serves a row whose cut lies beyond a cursor the caller knows', () => {
    const { cache, registry } = memoryCache();
    cache.put(subject(), cut0, registry.foldAll(header(), events).rows);
    expect(cache.cachedSnapshot(subject(), cut0, ['title'], { cursor: SessionLogOffset(3) })).toBeUndefined();
    expect(cache.cachedSnapshot(subject(), cut0, ['title'], { cursor: SessionLogOffset(4) })).toBeDefined();
  });

  it('a row whose view throws is a miss, not an error; the other keys are still served', () => {
    const logger = recordingLogger();
    const { cache, registry } = memoryCache(logger);
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
    expect(logger.entries[0]?.message).toMatch(/view threw/);
  });

  it('a row that is not valid JSON is a miss, not an error', () => {
    const { cache, db, registry } = memoryCache();
    cache.put(subject(), cut0, registry.foldAll(header(), events).rows);
    db.prepare("UPDATE projection_rows SET state = '{not json' WHERE key = 'title'").run();
    expect(cache.cachedSnapshot(subject(), cut0, ['title'])).toBeUndefined();
    expect(cache.cachedStates(subject(), cut0).title).toBeUndefined();
  });

  it('never serves a key that is not registered, and misses quietly after close', () => {
    const { cache, registry } = memoryCache();
    cache.put(subject(), cut0, {
      ...registry.foldAll(header(), events).rows,
      ghost: { stateVersion: 1, cut: SessionLogOffset(4), state: 1 },
    });
    expect(cache.cachedSnapshot(subject(), cut0, ['ghost'])).toBeUndefined();
    cache.close();
    expect(cache.cachedSnapshot(subject(), cut0)).toBeUndefined();
    expect(() => cache.put(subject(), cut0, {})).toThrow(ProjectionCacheError);
  });
});

describe('cachedStates', () => {
  it('hands restorable rows to an exact cold read, which folds only the events after their cut', () => {
    const { cache, registry } = memoryCache();
    cache.put(subject(), cut0, registry.foldAll(header(), events.slice(0, 2)).rows);
    const rows = cache.cachedStates(subject(), cut0);
    const from = registry.restoreStart(rows, SessionLogOffset(events.length));
    expect(from).toBe(2);
    const restored = registry.restore({ header: header(), rows, events: events.slice(from), from });
    expect(restored).toMatchObject({ kind: 'restored', refolded: [] });
    if (restored.kind === 'restored')
      expect(restored.projection.snapshot).toEqual(registry.foldAll(header(), events).snapshot);
  });

  it('a poisoned or unreadable row never becomes a verdict: restore refolds and gets the right value', () => {
    const { cache, db, registry } = memoryCache();
    cache.put(subject(), cut0, registry.foldAll(header(), events).rows);
    db.prepare('UPDATE projection_rows SET state = \'{"n":"x"}\' WHERE key = \'test/strict\'').run();
    db.prepare("UPDATE projection_rows SET state = 'nope' WHERE key = 'usage'").run();
    const restored = registry.restore({
      header: header(),
      rows: cache.cachedStates(subject(), cut0),
      events,
    });
    expect(restored).toMatchObject({ kind: 'restored', refolded: ['usage', 'test/strict'] });
    if (restored.kind === 'restored')
      expect(restored.projection.snapshot).toEqual(registry.foldAll(header(), events).snapshot);
  });
});

describe('put', () => {
  it('refuses a state that is not JSON with PROJECTION_CACHE_WRITE_FAILED', () => {
    const { cache } = memoryCache();
    try {
      cache.put(subject(), cut0, { title: { stateVersion: 1, cut: SessionLogOffset(1), state: undefined } });
      expect.unreachable();
    } catch (error) {
      expect((error as ProjectionCacheError).toJSON()).toMatchObject({
        code: 'PROJECTION_CACHE_WRITE_FAILED',
        sessionId: 's1',
      });
    }
  });

  it('forget drops every row of a session id', () => {
    const { cache, registry } = memoryCache();
    cache.put(subject(), cut0, registry.foldAll(header(), events).rows);
    cache.forget(header().id);
    expect(cache.cachedSnapshot(subject(), cut0)).toBeUndefined();
  });
});
