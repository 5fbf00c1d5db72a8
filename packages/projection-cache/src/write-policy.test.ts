import {
  BUILT_IN_UNITS,
  ProjectionRegistry,
  type AnyProjectionUnit,
  type CheckpointRows,
} from '@strand/projection';
import { bomb } from '@strand/projection/testing';
import {
  Session,
  SessionLogOffset,
  SessionStore,
  type SessionEventInput,
  type SessionId,
  type SessionLogOffset as Offset,
} from '@strand/session';
import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { ProjectionCache } from './cache.js';
import { SqliteCacheRowStore } from './sqlite-row-store.js';
import type { CacheSubject } from './subject.js';
import { FakeDurableLog, manualTimers } from './testing/fake-log.js';
import { header, recordingLogger } from './testing/fixtures.js';
import { CacheWritePolicy, type CacheWritePolicyOptions } from './write-policy.js';

const turn: SessionEventInput[] = [
  { type: 'turn/start', data: {} },
  { type: 'session/title', data: { title: 'T' } },
  { type: 'turn/end', data: { reason: 'completed' } },
];
const tick: SessionEventInput = { type: 'x/tick', data: {} };
const tickMany = (n: number): SessionEventInput[] => Array.from({ length: n }, () => tick);
// `bomb` (projection's test unit) throws on `test/boom`: a fold failure on demand.
const settleMicrotasks = () => new Promise<void>((resolve) => setImmediate(resolve));

function setup(
  options: Partial<CacheWritePolicyOptions> = {},
  units: readonly AnyProjectionUnit[] = BUILT_IN_UNITS,
) {
  const registry = new ProjectionRegistry({ units, reportError: () => {} });
  const cache = new ProjectionCache(new SqliteCacheRowStore(new Database(':memory:')), registry, {
    logger: recordingLogger(),
  });
  const log = new FakeDurableLog();
  const logger = recordingLogger();
  const timers = manualTimers();
  const puts: { subject: CacheSubject; cut: number; durable: number }[] = [];
  const forgets: string[] = [];
  const writer = {
    put(subject: CacheSubject, inheritedCut: Offset, rows: CheckpointRows) {
      const cut = Object.values(rows)[0]!.cut;
      puts.push({ subject, cut, durable: log.durable.get(subject.header.id) ?? 0 });
      cache.put(subject, inheritedCut, rows);
    },
    forget(sessionId: string) {
      forgets.push(sessionId);
      cache.forget(sessionId as SessionId);
    },
  };
  const policy = new CacheWritePolicy({
    registry,
    cache: writer,
    flush: log.flush,
    logger,
    everyEvents: 1_000,
    everyMs: 60_000,
    timers,
    ...options,
  });
  const session = (id = 's1', incarnation: string | null = 'inc-1') =>
    new Session({
      header: header(id),
      writer: log.writerFor(id),
      ...(incarnation === null ? {} : { incarnation }),
      reportListenerError: () => {},
    });
  return { registry, cache, log, logger, timers, puts, forgets, policy, session };
}

const cut0 = SessionLogOffset(0);

describe('CacheWritePolicy', () => {
  it('writes at turn end, at the durable cut: nothing folds before the writer acknowledged', async () => {
    const { registry, cache, log, puts, policy, session } = setup();
    const s = session();
    registry.track(s);
    const appended = s.append(turn);
    await settleMicrotasks();
    expect(registry.snapshot(s, ['title']).asOfSeq).toBe(-1);
    expect(puts).toEqual([]);
    log.settle();
    await appended;
    await policy.drain();
    expect(puts.map(({ cut, durable }) => ({ cut, durable }))).toEqual([{ cut: 3, durable: 3 }]);
    expect(cache.cachedSnapshot({ header: s.header, incarnation: 'inc-1' }, cut0, ['title'])).toEqual({
      asOfSeq: 2,
      values: { title: 'T' },
    });
  });

  it('writes nothing while the batch is not durable', async () => {
    const { registry, log, puts, session } = setup();
    const s = session();
    registry.track(s);
    void s.append(turn);
    await settleMicrotasks();
    await settleMicrotasks();
    expect(log.pendingWrites).toBe(1);
    expect(log.flushCalls).toBe(0);
    expect(puts).toEqual([]);
  });

  it('throttles by event count between turn ends', async () => {
    const { registry, log, puts, policy, session } = setup({ everyEvents: 5 });
    const s = session();
    registry.track(s);
    void s.append(tickMany(4));
    log.settle();
    await settleMicrotasks();
    expect(log.flushCalls).toBe(0);
    void s.append(tick);
    log.settle();
    await settleMicrotasks();
    await policy.drain();
    expect(puts.map((p) => p.cut)).toEqual([5]);
  });

  it('throttles by time: the first unwritten event arms one timer', async () => {
    const { registry, log, puts, policy, session, timers } = setup();
    const s = session();
    registry.track(s);
    void s.append(tick);
    void s.append(tick);
    expect(timers.armed).toBe(0);
    log.settle();
    await settleMicrotasks();
    expect(timers.armed).toBe(1);
    timers.fire();
    await settleMicrotasks();
    await policy.drain();
    expect(puts.map((p) => p.cut)).toEqual([2]);
  });

  it('writes the final rows when a live session detaches', async () => {
    const { registry, log, puts, policy, session } = setup();
    const store = new SessionStore();
    registry.bindStore(store);
    const s = session();
    store.attach(s);
    const appended = s.append(tickMany(2));
    log.settle();
    await appended;
    store.detach(s);
    await policy.drain();
    expect(puts.map((p) => p.cut)).toEqual([2]);
  });

  it('follows sessions that were tracked before the policy started', async () => {
    const { registry, log, puts, policy, session } = setup();
    policy.dispose();
    const s = session();
    registry.track(s);
    const late = new CacheWritePolicy({
      registry,
      cache: {
        put: (subject, _cut, rows) =>
          puts.push({ subject, cut: Object.values(rows)[0]!.cut, durable: log.durable.get('s1') ?? 0 }),
        forget: () => undefined,
      },
      flush: log.flush,
      logger: recordingLogger(),
    });
    void s.append(turn);
    log.settle();
    await settleMicrotasks();
    await late.drain();
    expect(puts.map((p) => p.cut)).toEqual([3]);
  });

  it('coalesces triggers during a write into one more write at the newest cut', async () => {
    const { registry, log, puts, policy, session } = setup();
    const s = session();
    registry.track(s);
    void s.append(turn);
    void s.append(turn);
    void s.append(turn);
    // The first turn is durable and folds; the write's flush waits for the other two, whose
    // folds trigger during it and coalesce into one more write.
    log.settle(1);
    await settleMicrotasks();
    log.settle(1);
    await settleMicrotasks();
    expect(puts).toEqual([]);
    log.settle(1);
    await settleMicrotasks();
    await policy.drain();
    expect(puts.map((p) => p.cut)).toEqual([3, 9]);
  });

  it('contains a failed row write, logs it, and the next write heals', async () => {
    const { registry, cache, log, logger, policy, session } = setup();
    let fail = true;
    const flaky = new CacheWritePolicy({
      registry,
      cache: {
        put: (subject, inheritedCut, rows) => {
          if (fail) {
            fail = false;
            throw new Error('SQLITE_BUSY');
          }
          cache.put(subject, inheritedCut, rows);
        },
        forget: () => undefined,
      },
      flush: log.flush,
      logger,
    });
    policy.dispose();
    const s = session();
    registry.track(s);
    const first = s.append(turn);
    log.settle();
    await first;
    await flaky.drain();
    expect(logger.entries.map((e) => e.message)).toEqual([
      'projection cache write failed; the next write heals it',
    ]);
    expect(cache.cachedSnapshot({ header: s.header, incarnation: 'inc-1' }, cut0)).toBeUndefined();
    const second = s.append(turn);
    log.settle();
    await second;
    await flaky.drain();
    expect(cache.cachedSnapshot({ header: s.header, incarnation: 'inc-1' }, cut0, ['title'])?.asOfSeq).toBe(
      5,
    );
  });

  it('never writes a row for a batch whose durable write failed', async () => {
    const { registry, log, logger, puts, policy, session } = setup();
    const s = session();
    registry.track(s);
    log.failNextWrite = true;
    const appended = s.append(turn);
    await settleMicrotasks();
    log.settle();
    await expect(appended).rejects.toMatchObject({ code: 'SESSION_WRITE_FAILED' });
    await policy.drain();
    // The failed batch never reached the durable cut, so nothing folded and nothing was tried.
    expect(registry.snapshot(s, ['title']).asOfSeq).toBe(-1);
    expect(puts).toEqual([]);
    expect(logger.entries).toEqual([]);
  });

  it('a fold failure drops the older rows: the cache never turns a corrupt session healthy', async () => {
    const { registry, cache, log, puts, forgets, policy, session } = setup({}, [...BUILT_IN_UNITS, bomb]);
    const s = session();
    const subject = { header: s.header, incarnation: 'inc-1' };
    registry.track(s);
    const healthy = s.append(turn);
    log.settle();
    await healthy;
    await policy.drain();
    expect(puts.map((p) => p.cut)).toEqual([3]);
    expect(cache.cachedSnapshot(subject, cut0, ['title'])?.asOfSeq).toBe(2);
    const broken = s.append([{ type: 'test/boom', data: {} }, ...turn]);
    log.settle();
    await broken;
    await policy.drain();
    expect(forgets).toEqual(['s1']);
    expect(cache.cachedSnapshot(subject, cut0, ['title'])).toBeUndefined();
    expect(puts.map((p) => p.cut)).toEqual([3]);
  });

  it('writes nothing for a session without incarnation or whose fold failed', async () => {
    const { registry, log, puts, policy, session } = setup({}, [...BUILT_IN_UNITS, bomb]);
    const unstored = session('mem', null);
    const broken = session('broken');
    registry.track(unstored);
    registry.track(broken);
    void unstored.append(turn);
    void broken.append([{ type: 'test/boom', data: {} }, ...turn]);
    await settleMicrotasks();
    log.settle();
    await policy.drain();
    expect(puts).toEqual([]);
  });

  it('the cache never leads the log under random interleavings of appends, durability and triggers', async () => {
    for (let seed = 1; seed <= 20; seed++) {
      let x = seed;
      const random = () => (x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
      const { registry, log, puts, policy, session, timers } = setup({ everyEvents: 3 });
      const sessions = [session('a'), session('b'), session('c')];
      for (const s of sessions) registry.track(s);
      const appends: Promise<unknown>[] = [];
      for (let step = 0; step < 60; step++) {
        const s = sessions[Math.floor(random() * sessions.length)]!;
        const roll = random();
        if (roll < 0.5) appends.push(s.append(roll < 0.2 ? turn : tickMany(1 + Math.floor(random() * 3))));
        else if (roll < 0.7) log.settle(1 + Math.floor(random() * 3));
        else if (roll < 0.8) timers.fire();
        else await settleMicrotasks();
        for (const p of puts) expect(p.cut).toBeLessThanOrEqual(p.durable);
      }
      log.settle();
      await Promise.all(appends);
      await policy.drain();
      for (const p of puts) expect(p.cut).toBeLessThanOrEqual(p.durable);
      expect(puts.length).toBeGreaterThan(0);
    }
  });
});
