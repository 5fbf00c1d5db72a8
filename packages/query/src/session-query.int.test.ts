import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { persistenceWriter } from '@strand/persistence';
import { Session, SessionId, type SessionEvent } from '@strand/session';
import { queryFixture, turn, type QueryFixture } from './testing/query-fixture.js';
import { isSessionQueryError } from './errors.js';

let f: QueryFixture;
beforeEach(async () => {
  f = await queryFixture();
});
afterEach(async () => {
  await f.close();
});

const liveCopyOf = (session: Session): Session =>
  new Session({
    header: session.header,
    events: session.events,
    inheritedEventCount: session.inheritedEventCount,
    ...(session.incarnation === undefined ? {} : { incarnation: session.incarnation }),
    writer: persistenceWriter(f.persistence, session.id),
  });

describe('observeSession sources', () => {
  it('a cold session is observed as cold: header, events, cursor and projections describe one cut', async () => {
    const written = await f.storedSession('cold-1', 3);
    const obs = await f.query.observeSession(written.id, { projectionMode: 'all' });
    expect(obs.source).toBe('cold');
    expect(obs.header).toEqual(written.header);
    expect(obs.events).toEqual(written.events);
    expect(obs.cursor).toBe(written.events.length);
    expect(obs.projections?.asOfSeq).toBe(obs.cursor - 1);
    expect(obs.projections?.values).toMatchObject({ title: 'Title of cold-1' });
    expect(obs.revision).toBe(await f.persistence.revisionOf(written.id));
    obs.dispose();
  });

  it('an attached session is observed as live with zero log reads', async () => {
    const written = await f.storedSession('live-1', 2);
    const live = liveCopyOf(written);
    f.store.attach(live);
    await live.append({ type: 'session/title', data: { title: 'Renamed live' } });
    const inspect = vi.spyOn(f.persistence, 'inspect');
    const readFrom = vi.spyOn(f.persistence, 'readFrom');
    const obs = await f.query.observeSession(live.id, { projectionMode: 'all', window: { last: 3 } });
    expect(obs.source).toBe('live');
    expect(obs.cursor).toBe(live.events.length);
    expect(obs.events).toEqual(live.events.slice(-3));
    expect(obs.firstSeq).toBe(live.events.length - 3);
    expect(obs.projections).toEqual({
      asOfSeq: live.events.length - 1,
      values: expect.objectContaining({ title: 'Renamed live' }),
    });
    expect(inspect).not.toHaveBeenCalled();
    expect(readFrom).not.toHaveBeenCalled();
    obs.dispose();
  });

  it('a session that becomes live while its cold load is in flight is published as live', async () => {
    const written = await f.storedSession('race-1', 2);
    f.hooks.afterColdBorrow = () => {
      delete f.hooks.afterColdBorrow;
      f.store.attach(liveCopyOf(written));
    };
    const obs = await f.query.observeSession(written.id, { projectionMode: 'all' });
    expect(obs.source).toBe('live');
    obs.dispose();
    expect(f.preparations.stats().outstandingLeases).toBe(0);
  });

  it('a live session that detaches while being observed is retried as cold, not reported missing', async () => {
    const written = await f.storedSession('race-2', 2);
    const live = liveCopyOf(written);
    f.store.attach(live);
    f.hooks.beforeLivePublish = () => {
      delete f.hooks.beforeLivePublish;
      f.store.detach(live);
    };
    const obs = await f.query.observeSession(written.id, { projectionMode: 'all' });
    expect(obs.source).toBe('cold');
    expect(obs.events).toEqual(written.events);
    obs.dispose();
  });
});

describe('observeSession errors', () => {
  it('not-found only when neither live nor persisted exists', async () => {
    await expect(f.query.observeSession(SessionId('nobody'))).rejects.toMatchObject({
      code: 'SESSION_QUERY_NOT_FOUND',
    });
    // A live-only session (never written) is found.
    const live = new Session({ header: (await f.storedSession('x', 0)).header });
    await f.persistence.delete(live.id);
    f.store.attach(live);
    const obs = await f.query.observeSession(live.id);
    expect(obs.source).toBe('live');
    obs.dispose();
  });

  it('corrupt data, cancellation and persistence failure each have their own code', async () => {
    const written = await f.storedSession('bad', 1);
    const corrupt = Object.assign(new Error('x'), {});
    vi.spyOn(f.persistence, 'inspect').mockRejectedValueOnce(
      new (await import('@strand/persistence')).PersistenceError('PERSISTENCE_CORRUPT', 'damaged', {
        sessionId: 'bad',
      }),
    );
    await expect(f.query.observeSession(written.id)).rejects.toMatchObject({
      code: 'SESSION_QUERY_CORRUPT_SESSION',
    });
    vi.spyOn(f.persistence, 'inspect').mockRejectedValueOnce(
      new (await import('@strand/persistence')).PersistenceError('PERSISTENCE_IO', 'disk', {
        cause: corrupt,
      }),
    );
    await expect(f.query.observeSession(written.id)).rejects.toMatchObject({
      code: 'SESSION_QUERY_PERSISTENCE_FAILED',
    });
    await expect(f.query.observeSession(written.id, { signal: AbortSignal.abort() })).rejects.toMatchObject({
      code: 'SESSION_QUERY_ABORTED',
    });
    expect(f.query.outstandingLeases).toBe(0);
    expect(f.preparations.stats().outstandingLeases).toBe(0);
  });

  it('a unit that throws fails an exact all-observation as corrupt session data', async () => {
    const written = await f.storedSession('poison', 1, [{ type: 'x/poison', data: {} }]);
    f.registry.register({
      key: 'poisonous',
      stateVersion: 1,
      init: () => 0,
      apply: (s: number, e: SessionEvent) => {
        if (e.type === 'x/poison') throw new Error('unit bug');
        return s;
      },
      view: (s: number) => s,
    });
    await expect(f.query.observeSession(written.id, { projectionMode: 'all' })).rejects.toMatchObject({
      code: 'SESSION_QUERY_CORRUPT_SESSION',
    });
    // 'none' does no projection work, so the same session reads fine.
    const obs = await f.query.observeSession(written.id, { projectionMode: 'none' });
    expect(obs.projections).toBeUndefined();
    obs.dispose();
  });

  it('an invalid window is a typed error', async () => {
    await expect(f.query.observeSession(SessionId('a'), { window: { last: -1 } })).rejects.toMatchObject({
      code: 'SESSION_QUERY_INVALID_QUERY',
    });
  });
});

describe('projection modes', () => {
  it("'none' performs no projection work at all; 'all' computes every registered unit at the cursor", async () => {
    const written = await f.storedSession('modes', 2);
    const foldAll = vi.spyOn(f.registry, 'foldAll');
    const restore = vi.spyOn(f.registry, 'restore');
    const snapshot = vi.spyOn(f.registry, 'snapshot');
    const none = await f.query.observeSession(written.id, { projectionMode: 'none' });
    expect(none.projections).toBeUndefined();
    expect(foldAll).not.toHaveBeenCalled();
    expect(restore).not.toHaveBeenCalled();
    expect(snapshot).not.toHaveBeenCalled();
    none.dispose();
    const all = await f.query.observeSession(written.id, { projectionMode: 'all' });
    expect(Object.keys(all.projections!.values).sort()).toEqual(f.registry.keys().sort());
    expect(all.projections!.values).toMatchObject({ usage: expect.anything(), title: 'Title of modes' });
    all.dispose();
  });

  it('a window limits the events returned, never the projection cut', async () => {
    const written = await f.storedSession('window', 5);
    const obs = await f.query.observeSession(written.id, {
      projectionMode: 'all',
      window: { last: 2 },
      requirePrepared: true,
    });
    expect(obs.events).toEqual(written.events.slice(-2));
    expect(obs.projections!.asOfSeq).toBe(written.events.length - 1);
    obs.dispose();
  });

  it('a tail read through cache rows gives exactly the cut the whole-log read gives', async () => {
    const written = await f.storedSession('tail', 6);
    // A cache row at an earlier cut, as the write policy would have left at a turn end.
    const midCut = 1 + 4 * 4;
    const rows = f.registry.foldAll(written.header, written.events.slice(0, midCut)).rows;
    f.cache.put(
      { header: written.header, incarnation: written.incarnation! },
      written.inheritedEventCount,
      rows,
    );
    const readFrom = vi.spyOn(f.persistence, 'readFrom');
    const inspect = vi.spyOn(f.persistence, 'inspect');
    const tail = await f.query.observeSession(written.id, { projectionMode: 'all', window: { last: 3 } });
    expect(inspect).not.toHaveBeenCalled();
    expect(readFrom).toHaveBeenCalled();
    expect(tail.hasPreparedSource).toBe(false);
    const whole = await f.query.observeSession(written.id, {
      projectionMode: 'all',
      window: { last: 3 },
      requirePrepared: true,
    });
    expect(whole.hasPreparedSource).toBe(true);
    expect({
      events: tail.events,
      cursor: tail.cursor,
      firstSeq: tail.firstSeq,
      projections: tail.projections,
      header: tail.header,
    }).toEqual({
      events: whole.events,
      cursor: whole.cursor,
      firstSeq: whole.firstSeq,
      projections: whole.projections,
      header: whole.header,
    });
    tail.dispose();
    whole.dispose();
  });

  it('readies the cache rows of a cold session (prefetch) before its synchronous cachedStates read', async () => {
    const written = await f.storedSession('prefetched', 6);
    const prefetch = vi.spyOn(f.cache, 'prefetch');
    const cachedStates = vi.spyOn(f.cache, 'cachedStates');
    const tail = await f.query.observeSession(written.id, { projectionMode: 'all', window: { last: 3 } });
    tail.dispose();
    expect(prefetch).toHaveBeenCalledWith([written.id]);
    expect(cachedStates).toHaveBeenCalled();
    expect(prefetch.mock.invocationCallOrder[0]!).toBeLessThan(cachedStates.mock.invocationCallOrder[0]!);
    // No projections asked: nothing to ready.
    prefetch.mockClear();
    (await f.query.observeSession(written.id, { projectionMode: 'none', window: { last: 3 } })).dispose();
    expect(prefetch).not.toHaveBeenCalled();
  });

  it('with fillCache, a whole-log cold fold leaves cache rows behind, so the next windowed view is a tail read of the same cut', async () => {
    const written = await f.storedSession('fill', 6);
    const subject = { header: written.header, incarnation: written.incarnation! };
    expect(f.cache.cachedStates(subject, written.inheritedEventCount)).toEqual({});
    // Without it (a computing-and-discarding reader) nothing is written back.
    const discarded = await f.query.observeSession(written.id, { projectionMode: 'all' });
    discarded.dispose();
    expect(f.cache.cachedStates(subject, written.inheritedEventCount)).toEqual({});
    const first = await f.query.observeSession(written.id, {
      projectionMode: 'all',
      window: { last: 3 },
      fillCache: true,
    });
    expect(first.hasPreparedSource).toBe(true);
    first.dispose();
    expect(Object.keys(f.cache.cachedStates(subject, written.inheritedEventCount)).sort()).toEqual(
      f.registry.keys().sort(),
    );
    const inspect = vi.spyOn(f.persistence, 'inspect');
    const next = await f.query.observeSession(written.id, { projectionMode: 'all', window: { last: 3 } });
    expect(inspect).not.toHaveBeenCalled();
    expect(next.hasPreparedSource).toBe(false);
    expect(next.projections).toEqual(first.projections);
    expect(next.events).toEqual(written.events.slice(-3));
    next.dispose();
  });

  it('a cold log with a turn left open by a crash is observed at what the disk holds: its repair closers are not shown until written', async () => {
    const written = await f.storedSession('open', 1, [
      { type: 'turn/start', data: {} },
      { type: 'step/start', data: {} },
    ]);
    for (const window of [undefined, { last: 2 }] as const) {
      const obs = await f.query.observeSession(written.id, {
        projectionMode: 'all',
        ...(window === undefined ? {} : { window }),
      });
      expect(obs.events.slice(-2).map((e) => e.type)).toEqual(['turn/start', 'step/start']);
      expect(obs.cursor).toBe(written.events.length);
      // The projections are of that cut too: no fold of an event nobody may see.
      expect(obs.projections?.asOfSeq).toBe(written.events.length - 1);
      obs.dispose();
    }
    expect((await f.persistence.inspect(written.id)).events).toHaveLength(written.events.length); // nothing written
  });

  it('the cut of a crashed log is on disk, so a read-through fills its cache row at that cut', async () => {
    const written = await f.storedSession('open-fill', 1, [
      { type: 'turn/start', data: {} },
      { type: 'step/start', data: {} },
    ]);
    const obs = await f.query.observeSession(written.id, { projectionMode: 'all', fillCache: true });
    obs.dispose();
    const subject = { header: written.header, incarnation: written.incarnation! };
    expect(Object.keys(f.cache.cachedStates(subject, written.inheritedEventCount)).sort()).toEqual(
      f.registry.keys().sort(),
    );
  });
});

describe('projections only (a window of no events)', () => {
  /** The projections-only cut, and the cut of the same log read whole. */
  async function bothCuts(id: SessionId) {
    const scanned = await f.query.observeSession(id, { projectionMode: 'all', window: { last: 0 } });
    const whole = await f.query.observeSession(id, { projectionMode: 'all', requirePrepared: true });
    return { scanned, whole };
  }

  for (const ending of ['closed', 'crashed'] as const) {
    it(`is one persistence scan of the registry's data types, with exactly the whole-log projections (${ending} log)`, async () => {
      const written = await f.storedSession(
        `scan-${ending}`,
        3,
        ending === 'closed'
          ? []
          : [
              { type: 'turn/start', data: {} },
              { type: 'tool/call', data: { callId: 'c1', name: 'run', arguments: '{}' } },
            ],
      );
      const scan = vi.spyOn(f.persistence, 'scan');
      const inspect = vi.spyOn(f.persistence, 'inspect');
      const readFrom = vi.spyOn(f.persistence, 'readFrom');
      const { scanned, whole } = await bothCuts(written.id);
      expect(scan).toHaveBeenCalledTimes(1);
      expect(scan.mock.calls[0]![1].dataTypes).toEqual(f.registry.dataTypes());
      expect(readFrom).not.toHaveBeenCalled();
      expect(inspect).toHaveBeenCalledTimes(1); // the whole read only
      expect(scanned.events).toEqual([]);
      expect(scanned.firstSeq).toBe(scanned.cursor);
      expect(scanned.hasPreparedSource).toBe(false);
      expect({ cursor: scanned.cursor, projections: scanned.projections, header: scanned.header }).toEqual({
        cursor: whole.cursor,
        projections: whole.projections,
        header: whole.header,
      });
      expect(f.preparations.stats().entries).toBe(1); // the whole read's; the scan prepared nothing
      scanned.dispose();
      whole.dispose();
    });
  }

  it('reads the whole log when a registered unit does not declare its data reads, or when the log is already prepared', async () => {
    const written = await f.storedSession('undeclared', 2);
    const scan = vi.spyOn(f.persistence, 'scan');
    const prepared = await f.query.observeSession(written.id, {
      projectionMode: 'all',
      requirePrepared: true,
    });
    const reused = await f.query.observeSession(written.id, { projectionMode: 'all', window: { last: 0 } });
    expect(scan).not.toHaveBeenCalled();
    expect(reused.projections).toEqual(prepared.projections);
    prepared.dispose();
    reused.dispose();
    f.preparations.invalidate(written.id);
    f.registry.register({
      key: 'undeclared',
      stateVersion: 1,
      init: () => 0,
      apply: (n: number) => n + 1,
      view: (n) => n,
    });
    const all = await f.query.observeSession(written.id, { projectionMode: 'all', window: { last: 0 } });
    expect(scan).not.toHaveBeenCalled();
    expect(all.projections!.values).toMatchObject({ undeclared: written.events.length });
    all.dispose();
  });
});

describe('leases', () => {
  it('retain() yields an independent lease on the same cut; after all are disposed the prepared entry can retire', async () => {
    const written = await f.storedSession('lease', 1);
    const first = await f.query.observeSession(written.id);
    const second = first.retain();
    expect(second.events).toBe(first.events);
    expect(f.query.outstandingLeases).toBe(2);
    first.dispose();
    first.dispose(); // idempotent
    expect(f.preparations.stats().outstandingLeases).toBe(1);
    expect(second.events).toEqual(written.events);
    second.dispose();
    expect(f.query.outstandingLeases).toBe(0);
    expect(f.preparations.stats().outstandingLeases).toBe(0);
    expect(() => second.retain()).toThrow();
  });

  it('property: under aborts at scheduler-chosen points every lease is released and cancellation never becomes not-found', async () => {
    const ids = await Promise.all([0, 1, 2].map(async (i) => (await f.storedSession(`p${i}`, 2 + i)).id));
    // The timing is a generated value: fast-check's scheduler decides when each storage read
    // resolves, when each resolution hook returns and when each abort fires, so a failure
    // replays from its seed and shrinks to a smaller interleaving (no real timers).
    const scheduledAborts = { rejected: 0, resolved: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        fc.array(
          fc.record({
            session: fc.integer({ min: 0, max: 2 }),
            abort: fc.constantFrom('never', 'before-start', 'scheduled'),
          }),
          { minLength: 1, maxLength: 8 },
        ),
        async (s, plans) => {
          f.preparations.invalidate(ids[0]!);
          const unschedule = scheduleStorageReads(f, s);
          f.hooks.afterColdBorrow = () => s.schedule(Promise.resolve(), 'afterColdBorrow');
          f.hooks.beforeLivePublish = () => s.schedule(Promise.resolve(), 'beforeLivePublish');
          try {
            const settled = Promise.allSettled(
              plans.map(async (plan, i) => {
                const controller = new AbortController();
                if (plan.abort === 'before-start') controller.abort();
                if (plan.abort === 'scheduled')
                  void s.schedule(Promise.resolve(), `abort #${i}`).then(() => controller.abort());
                const obs = await f.query.observeSession(ids[plan.session]!, {
                  projectionMode: 'all',
                  signal: controller.signal,
                });
                obs.dispose();
              }),
            );
            const results = await s.waitFor(settled);
            // Release what is still scheduled (an abort that came too late, the read an aborted
            // borrower left behind): a load left pending here would be shared by the next run's
            // borrowers and hang them — and every lease must be released once it lands.
            await s.waitIdle();
            for (const r of results) {
              if (r.status === 'rejected')
                expect(isSessionQueryError(r.reason, 'SESSION_QUERY_ABORTED')).toBe(true);
            }
            plans.forEach((plan, i) => {
              if (plan.abort === 'before-start') expect(results[i]!.status).toBe('rejected');
              if (plan.abort === 'scheduled')
                scheduledAborts[results[i]!.status === 'rejected' ? 'rejected' : 'resolved']++;
            });
            expect(f.query.outstandingLeases).toBe(0);
            expect(f.preparations.stats().outstandingLeases).toBe(0);
          } finally {
            unschedule();
            delete f.hooks.afterColdBorrow;
            delete f.hooks.beforeLivePublish;
          }
        },
      ),
      { numRuns: 30 },
    );
    console.info(`scheduled aborts: ${JSON.stringify(scheduledAborts)}`);
    // The scheduler really moved the aborts: some landed mid-observation, some after it.
    expect(scheduledAborts.rejected).toBeGreaterThan(0);
    expect(scheduledAborts.resolved).toBeGreaterThan(0);
  });
});

/** Routes the storage reads a cold observation makes through `s`, which then orders their results. */
function scheduleStorageReads(fixture: QueryFixture, s: fc.Scheduler): () => void {
  const persistence = fixture.persistence;
  const spies = (['load', 'inspect', 'scan', 'readFrom', 'revisionOf'] as const).map((method) => {
    const original = persistence[method].bind(persistence) as (...args: unknown[]) => Promise<unknown>;
    return vi.spyOn(persistence, method).mockImplementation(s.scheduleFunction(original) as never);
  });
  return () => {
    for (const spy of spies) spy.mockRestore();
  };
}

describe('listSessions', () => {
  it('merges persisted headers with attached sessions, the live record winning, without reading logs', async () => {
    const a = await f.storedSession('a', 1);
    await f.storedSession('b', 1);
    const live = liveCopyOf(a);
    f.store.attach(live);
    const inspect = vi.spyOn(f.persistence, 'inspect');
    const rows = await f.query.listSessions();
    expect(inspect).not.toHaveBeenCalled();
    const byId = new Map(rows.map((r) => [r.header.id, r]));
    expect(byId.get(a.id)).toMatchObject({ live: true, persisted: true, incarnation: a.incarnation });
    expect(byId.get(SessionId('b'))).toMatchObject({ live: false, persisted: true });
    expect(rows.every((r) => !('inheritedEventCount' in r))).toBe(true);
    expect(turn(0)).toHaveLength(4);
  });
});
