import { SessionStore } from '@strand/session';
import { describe, expect, it, vi } from 'vitest';
import { ProjectionError } from './errors.js';
import type { TrackingEvent } from './feeds.js';
import { ProjectionRegistry } from './registry.js';
import { header } from './testing/events.js';
import {
  bomb,
  CountingSession,
  liveSession,
  poisonedView,
  saturating,
  tickCounter,
} from './testing/sessions.js';
import { titleUnit } from './units/title/title.js';

const quiet = (): ProjectionRegistry => new ProjectionRegistry({ reportError: () => {} });

function failureOf(run: () => unknown): ProjectionError {
  try {
    run();
  } catch (error) {
    if (error instanceof ProjectionError) return error;
    throw new Error(`expected a ProjectionError, got ${String(error)}`);
  }
  throw new Error('expected a throw');
}

describe('registration', () => {
  it('registers a key once; the same unit again is a no-op', () => {
    const registry = quiet();
    registry.register(tickCounter);
    registry.register(tickCounter);
    expect(registry.keys()).toEqual(['test/ticks']);
  });

  it('refuses another unit or another stateVersion under a registered key', () => {
    const registry = quiet();
    registry.register(tickCounter);
    expect(failureOf(() => registry.register({ ...tickCounter })).code).toBe('PROJECTION_KEY_CONFLICT');
    const bumped = failureOf(() => registry.register({ ...tickCounter, stateVersion: 2 }));
    expect(bumped.code).toBe('PROJECTION_KEY_CONFLICT');
    expect(bumped.message).toContain('stateVersion 1');
  });

  it('refuses a unit with an empty key or a non-positive-integer stateVersion', () => {
    expect(failureOf(() => quiet().register({ ...tickCounter, key: '' as 'test/ticks' })).code).toBe(
      'PROJECTION_UNIT_INVALID',
    );
    expect(failureOf(() => quiet().register({ ...tickCounter, stateVersion: 1.5 })).code).toBe(
      'PROJECTION_UNIT_INVALID',
    );
  });

  it('refuses dataReads that is not an array of event types', () => {
    for (const dataReads of ['test/tick', [''], [1]] as unknown as string[][]) {
      expect(failureOf(() => quiet().register({ ...tickCounter, dataReads })).code).toBe(
        'PROJECTION_UNIT_INVALID',
      );
    }
  });

  it('dataTypes is the union of the units’ dataReads, undefined while any unit leaves it undeclared', () => {
    const registry = quiet();
    expect(registry.dataTypes()).toEqual(new Set());
    registry.register(titleUnit);
    const dispose = registry.register({ ...tickCounter, dataReads: ['test/tick', 'session/title'] });
    expect(registry.dataTypes()).toEqual(new Set(['session/title', 'test/tick']));
    dispose();
    expect(registry.dataTypes()).toEqual(new Set(['session/title']));
    const undeclared = registry.register({ ...tickCounter, key: 'test/other' as 'test/ticks' });
    expect(registry.dataTypes()).toBeUndefined();
    undeclared();
    expect(registry.dataTypes()).toEqual(new Set(['session/title']));
  });

  it('unregistering removes the key and its state from live folds; re-registering refolds from memory', async () => {
    const registry = quiet();
    const dispose = registry.register(tickCounter);
    const session = liveSession();
    registry.track(session);
    await session.append([{ type: 'test/tick', data: {} }]);
    dispose();
    expect(registry.snapshot(session).values).toEqual({});
    expect(registry.checkpoint(session)).toEqual({});
    registry.register({ ...tickCounter, stateVersion: 2 });
    expect(registry.snapshot(session).values).toEqual({ 'test/ticks': 1 });
  });
});

describe('live watermark cache', () => {
  it('advances on every append: one asOfSeq for all keys, −1 for an empty log', async () => {
    const registry = new ProjectionRegistry({ units: [tickCounter, titleUnit] });
    const session = liveSession();
    registry.track(session);
    expect(registry.snapshot(session)).toEqual({ asOfSeq: -1, values: { 'test/ticks': 0, title: null } });
    await session.append([
      { type: 'test/tick', data: {} },
      { type: 'session/title', data: { title: 'T' } },
    ]);
    await session.append({ type: 'test/tick', data: {} });
    expect(registry.snapshot(session)).toEqual({ asOfSeq: 2, values: { 'test/ticks': 2, title: 'T' } });
  });

  it('a live snapshot costs zero log reads, whatever the length', async () => {
    for (const length of [10, 10_000]) {
      const registry = new ProjectionRegistry({ units: [tickCounter] });
      const session = liveSession();
      registry.track(session);
      await session.append(Array.from({ length }, () => ({ type: 'test/tick', data: {} })));
      const before = session.eventReads;
      expect(registry.snapshot(session, ['test/ticks']).values['test/ticks']).toBe(length);
      registry.checkpoint(session);
      expect(session.eventReads).toBe(before);
    }
  });

  it('snapshots only the requested keys; an unregistered key is absent (capability absent)', async () => {
    const registry = new ProjectionRegistry({ units: [tickCounter, titleUnit] });
    const session = liveSession();
    registry.track(session);
    await session.append({ type: 'test/tick', data: {} });
    expect(registry.snapshot(session, ['title', 'nope'])).toEqual({ asOfSeq: 0, values: { title: null } });
  });

  it('keeps an explicit null through JSON', () => {
    const registry = new ProjectionRegistry({ units: [titleUnit] });
    const session = liveSession();
    registry.track(session);
    expect(JSON.parse(JSON.stringify(registry.snapshot(session)))).toEqual({
      asOfSeq: -1,
      values: { title: null },
    });
  });

  it('refuses a session it does not track', () => {
    expect(failureOf(() => quiet().snapshot(liveSession())).code).toBe('PROJECTION_NOT_TRACKED');
    expect(failureOf(() => quiet().checkpoint(liveSession())).code).toBe('PROJECTION_NOT_TRACKED');
  });

  it('folds what was appended before tracking from memory, then follows appends', async () => {
    const registry = new ProjectionRegistry({ units: [tickCounter] });
    const session = liveSession();
    await session.append([{ type: 'test/tick', data: {} }]);
    registry.track(session);
    registry.track(session);
    await session.append([{ type: 'test/tick', data: {} }]);
    expect(registry.snapshot(session, ['test/ticks']).values['test/ticks']).toBe(2);
  });

  it('track with seed rows folds only the events after their cut', async () => {
    let applies = 0;
    const counting = {
      ...tickCounter,
      apply: (s: number, e: { type: string }) => (applies++, e.type === 'test/tick' ? s + 1 : s),
    };
    const registry = new ProjectionRegistry({ units: [counting] });
    const session = liveSession();
    await session.append(Array.from({ length: 10 }, () => ({ type: 'test/tick', data: {} })));
    const seed = registry.foldAll(session.header, session.events.slice(0, 8)).rows;
    applies = 0;
    registry.track(session, { seed });
    expect(applies).toBe(2);
    expect(registry.snapshot(session, ['test/ticks']).values).toEqual({ 'test/ticks': 10 });
  });

  it('computes a unit registered while sessions are tracked', async () => {
    const registry = quiet();
    const session = liveSession();
    registry.track(session);
    await session.append([{ type: 'test/tick', data: {} }]);
    registry.register(tickCounter);
    expect(registry.snapshot(session)).toEqual({ asOfSeq: 0, values: { 'test/ticks': 1 } });
  });
});

describe('onChanged', () => {
  it('reports (sessionId, key, value, seq) with the last event that changed the key', async () => {
    const registry = new ProjectionRegistry({ units: [tickCounter, titleUnit] });
    const session = liveSession('chg');
    registry.track(session);
    const changes: unknown[] = [];
    registry.onChanged((...args) => changes.push(args));
    await session.append([
      { type: 'test/tick', data: {} },
      { type: 'test/tick', data: {} },
      { type: 'other', data: {} },
    ]);
    expect(changes).toEqual([['chg', 'test/ticks', 2, 1]]);
  });

  it('runs nothing for an irrelevant event: same state reference, no view, no change', async () => {
    const view = vi.fn((state: number) => state);
    const registry = new ProjectionRegistry({ units: [{ ...tickCounter, view }] });
    const session = liveSession();
    registry.track(session);
    const listener = vi.fn();
    registry.onChanged(listener);
    await session.append([
      { type: 'turn/start', data: {} },
      { type: 'plugin/x', data: { a: 1 } },
    ]);
    expect(view).not.toHaveBeenCalled();
    expect(listener).not.toHaveBeenCalled();
  });

  it('stays silent when the state changed but the viewed value did not', async () => {
    const registry = new ProjectionRegistry({ units: [saturating] });
    const session = liveSession();
    registry.track(session);
    const listener = vi.fn();
    registry.onChanged(listener);
    await session.append({ type: 'test/tick', data: {} });
    await session.append({ type: 'test/tick', data: {} });
    expect(listener.mock.calls).toEqual([['s1', 'test/saturating', 1, 0]]);
  });

  it('contains a throwing listener: the append succeeds and other listeners still run', async () => {
    const reported: ProjectionError[] = [];
    const registry = new ProjectionRegistry({ units: [tickCounter], reportError: (e) => reported.push(e) });
    const session = liveSession();
    registry.track(session);
    const second = vi.fn();
    registry.onChanged(() => {
      throw new Error('listener bug');
    });
    registry.onChanged(second);
    await expect(session.append({ type: 'test/tick', data: {} })).resolves.toHaveLength(1);
    expect(second).toHaveBeenCalledOnce();
    expect(reported.map((e) => e.code)).toEqual(['PROJECTION_LISTENER_FAILED']);
  });
});

describe('a unit that breaks its contract', () => {
  it('never fails or undoes an append; the session snapshot then throws PROJECTION_FAILED', async () => {
    const reported: ProjectionError[] = [];
    const registry = new ProjectionRegistry({
      units: [tickCounter, bomb],
      reportError: (e) => reported.push(e),
    });
    const listenerErrors: unknown[] = [];
    const session = new CountingSession({
      header: header(),
      reportListenerError: (e) => listenerErrors.push(e),
    });
    const healthy = liveSession('s2');
    registry.track(session);
    registry.track(healthy);
    const tracking: TrackingEvent['kind'][] = [];
    registry.onTracking((event) => tracking.push(event.kind));

    await expect(
      session.append([
        { type: 'test/tick', data: {} },
        { type: 'test/boom', data: {} },
      ]),
    ).resolves.toHaveLength(2);
    await session.append({ type: 'test/tick', data: {} });
    await healthy.append({ type: 'test/tick', data: {} });

    expect(session.events).toHaveLength(3);
    const failure = failureOf(() => registry.snapshot(session));
    expect(failure.code).toBe('PROJECTION_FAILED');
    expect(failure.details).toMatchObject({ key: 'test/bomb', phase: 'apply', seq: 1, sessionId: 's1' });
    expect(failure.cause).toBeInstanceOf(TypeError);
    expect(failureOf(() => registry.checkpoint(session)).code).toBe('PROJECTION_FAILED');
    expect(JSON.parse(JSON.stringify(failure))).toMatchObject({
      name: 'ProjectionError',
      code: 'PROJECTION_FAILED',
    });
    expect(registry.snapshot(healthy, ['test/ticks']).values).toEqual({ 'test/ticks': 1 });
    expect(reported).toHaveLength(1);
    expect(tracking).toEqual(['failed', 'folded']);
    expect(listenerErrors).toEqual([]);
  });

  it('unregistering the culprit refolds the session from memory and revives its snapshot', async () => {
    const registry = new ProjectionRegistry({ units: [tickCounter, bomb], reportError: () => {} });
    const session = liveSession();
    registry.track(session);
    await session.append([
      { type: 'test/boom', data: {} },
      { type: 'test/tick', data: {} },
    ]);
    registry.unregister('test/bomb');
    expect(registry.snapshot(session)).toEqual({ asOfSeq: 1, values: { 'test/ticks': 1 } });
  });

  it('a view that throws fails the snapshot (but not the fold) and pushes no value', async () => {
    const reported: ProjectionError[] = [];
    const registry = new ProjectionRegistry({
      units: [poisonedView, tickCounter],
      reportError: (e) => reported.push(e),
    });
    const session = liveSession();
    registry.track(session);
    const listener = vi.fn();
    registry.onChanged(listener);
    await session.append({ type: 'test/poison', data: {} });
    expect(failureOf(() => registry.snapshot(session)).details).toMatchObject({
      key: 'test/poisoned-view',
      phase: 'view',
    });
    expect(registry.snapshot(session, ['test/ticks'])).toEqual({ asOfSeq: 0, values: { 'test/ticks': 0 } });
    expect(listener).not.toHaveBeenCalled();
    expect(reported.map((e) => e.details.phase)).toEqual(['view']);
  });

  it('an init that throws fails the session at track time', () => {
    const registry = quiet();
    registry.register({
      ...tickCounter,
      init: () => {
        throw new Error('no');
      },
    });
    const session = liveSession();
    registry.track(session);
    expect(failureOf(() => registry.snapshot(session)).details.phase).toBe('init');
  });
});

describe('store binding and tracking events', () => {
  it('tracks attached sessions, untracks detached ones and hands over the final checkpoint', async () => {
    const registry = new ProjectionRegistry({ units: [tickCounter] });
    const store = new SessionStore();
    const early = liveSession('early');
    store.attach(early);
    const events: TrackingEvent[] = [];
    registry.onTracking((event) => events.push(event));
    const unbind = registry.bindStore(store);
    const late = liveSession('late');
    store.attach(late);
    await late.append({ type: 'test/tick', data: {} });
    expect(registry.isTracked(early) && registry.isTracked(late)).toBe(true);

    store.detach(late);
    expect(registry.isTracked(late)).toBe(false);
    const untracked = events.find((e) => e.kind === 'untracked');
    expect(untracked).toMatchObject({
      kind: 'untracked',
      checkpoint: { 'test/ticks': { stateVersion: 1, cut: 1, state: 1 } },
    });
    expect(events.map((e) => e.kind)).toEqual(['tracked', 'tracked', 'folded', 'untracked']);

    unbind();
    expect(registry.isTracked(early)).toBe(false);
  });
});
