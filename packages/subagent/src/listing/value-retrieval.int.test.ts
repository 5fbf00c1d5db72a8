import { SessionLogOffset, SessionId, type Session } from '@strand/session';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { descriptorEvent } from '../descriptor.js';
import { fixtureTurn, listingStack, type ListingStack } from '../testing/listing-stack.js';
import { LIFECYCLE_WITNESS_FIELDS } from './witness.js';
import { listChildren } from './list-children.js';
import type { ListingCache, SubagentListEntry } from './types.js';

// The listing contract, "Value retrieval: the three-rung compute-and-discard ladder" — one test per behaviour.

let stack: ListingStack;
const P = SessionId('parent');
const child = (
  id: string,
  label = `label-${id}`,
  activity: 'running' | 'inactive' = 'inactive',
): SubagentListEntry => ({
  kind: 'child',
  id: SessionId(id),
  activity,
  hasChildren: false,
  mode: 'continuable',
  label,
});
const subjectOf = (s: Session): { header: Session['header']; incarnation: string } => ({
  header: s.header,
  incarnation: s.incarnation!,
});

beforeEach(async () => {
  stack = await listingStack();
});
afterEach(async () => {
  await stack.close();
});

describe('rung 1: a live child', () => {
  it('reads registry.snapshot(session, ["subagent"]) — the watermark cache — with zero log reads, whatever the log length', async () => {
    await stack.child({ id: 'long', parent: 'parent', state: 'live', turns: 60 });
    const snapshot = vi.spyOn(stack.registry, 'snapshot');
    stack.resetCounts();
    expect(await listChildren(stack.ctx, P)).toEqual([child('long', 'label-long', 'running')]);
    expect(snapshot).toHaveBeenCalledTimes(1);
    expect(snapshot.mock.calls[0]![1]).toEqual(['subagent']);
    expect(stack.persistence.bodyReads).toBe(0);
    expect(stack.observed.observed).toEqual([]);
  });

  it('checks the identity with Session.isOwnSeq: a seeded live child with its own descriptor is listed, one with only an inherited one is not', async () => {
    const ancestor = await stack.child({ id: 'ancestor', parent: 'elsewhere', state: 'live', turns: 2 });
    const own = await stack.child({ id: 'own', parent: 'parent', state: 'live', seed: { from: ancestor } });
    await stack.child({
      id: 'inherited',
      parent: 'parent',
      state: 'live',
      seed: { from: ancestor },
      descriptor: null,
    });
    const isOwnSeq = vi.spyOn(own, 'isOwnSeq');
    expect(await listChildren(stack.ctx, P)).toEqual([child('own', 'label-own', 'running')]);
    expect(isOwnSeq).toHaveBeenCalledWith(ancestor.cursor); // the child's descriptor follows the inherited prefix
  });
});

describe('live preference re-checked after enumeration', () => {
  it('a live child detached between enumeration and its snapshot is read cold, not reported unavailable', async () => {
    const c = await stack.child({ id: 'c', parent: 'parent', state: 'live' });
    let detached = false;
    const sessions = {
      get: (id: SessionId) => {
        const session = stack.store.get(id);
        if (session === c && !detached) {
          detached = true;
          queueMicrotask(() => stack.store.detach(c)); // lands before the ladder runs
        }
        return session;
      },
    };
    expect(await listChildren({ ...stack.ctx, sessions }, P)).toEqual([child('c')]);
    expect(detached).toBe(true);
    expect(stack.query.outstandingLeases).toBe(0);
  });
});

describe('rung 2: an unseeded cold child and the optional projection cache', () => {
  it('calls cachedSnapshot({header, incarnation}, SessionLogOffset(0), ["subagent"]) and, on a hit, reads no log', async () => {
    const c = await stack.child({ id: 'c', parent: 'parent', state: 'cached' });
    const cachedSnapshot = vi.spyOn(stack.cache, 'cachedSnapshot');
    stack.resetCounts();
    expect(await listChildren(stack.ctx, P)).toEqual([child('c')]);
    expect(cachedSnapshot).toHaveBeenCalledWith(subjectOf(c), SessionLogOffset(0), ['subagent']);
    expect(stack.persistence.bodyReads).toBe(0);
  });

  it('an absent cache is skipped on a null check: no error, the child takes one observation', async () => {
    await stack.child({ id: 'c', parent: 'parent', state: 'cached' });
    stack.resetCounts();
    expect(await listChildren(stack.ctxWithoutCache, P)).toEqual([child('c')]);
    expect(stack.observed.observed).toEqual(['c']);
    expect(stack.persistence.bodyReads).toBe(1);
  });

  it('a seeded child skips the cache rung even when a row for its exact cut exists', async () => {
    const source = await stack.ordinary('source', { live: true, turns: 2 });
    const seeded = await stack.child({
      id: 'seeded',
      parent: 'parent',
      state: 'cached',
      seed: { from: source },
    });
    expect(
      stack.cache.cachedSnapshot(subjectOf(seeded), seeded.inheritedEventCount, ['subagent'])?.values
        .subagent,
    ).toMatchObject({ label: 'label-seeded' });
    const cachedSnapshot = vi.spyOn(stack.cache, 'cachedSnapshot');
    stack.resetCounts();
    expect(await listChildren(stack.ctx, P)).toEqual([child('seeded')]);
    expect(cachedSnapshot).not.toHaveBeenCalled();
    expect(stack.persistence.bodyReads).toBe(1);
  });

  it('a cache that holds only the sessions it loaded is prefetched with the cold unseeded children first: rung 2 hits', async () => {
    const c = await stack.child({ id: 'c', parent: 'parent', state: 'cached' });
    const source = await stack.ordinary('source', { live: true, turns: 2 });
    await stack.child({ id: 'seeded', parent: 'parent', state: 'cached', seed: { from: source } });
    // Like PostgreSQL's bounded mirror: a session not prefetched misses.
    const loaded = new Set<string>();
    const prefetched: string[][] = [];
    const partial: ListingCache = {
      cachedSnapshot: (subject, ...rest) =>
        loaded.has(subject.header.id) ? stack.cache.cachedSnapshot(subject, ...rest) : undefined,
      prefetch: (ids) => {
        prefetched.push([...ids]);
        for (const id of ids) loaded.add(id);
        return Promise.resolve();
      },
    };
    stack.resetCounts();
    const rows = await listChildren({ ...stack.ctx, sessionProjectionCache: partial }, P);
    expect(rows).toEqual(expect.arrayContaining([child('c'), child('seeded')]));
    expect(prefetched).toEqual([[c.id]]); // the seeded child cannot take rung 2: not loaded
    expect(stack.observed.observed).toEqual(['seeded']); // c was served by rung 2, no read
  });

  it('a prefetch that rejects is a miss: the children take rung 3 (fault injection)', async () => {
    await stack.child({ id: 'c', parent: 'parent', state: 'cached' });
    const failing: ListingCache = {
      cachedSnapshot: () => undefined,
      prefetch: () => Promise.reject(new Error('connection lost')),
    };
    stack.resetCounts();
    expect(await listChildren({ ...stack.ctx, sessionProjectionCache: failing }, P)).toEqual([child('c')]);
    expect(stack.persistence.bodyReads).toBe(1);
  });

  it('anything the cache throws silently falls to rung 3: a fault is a miss, never a corrupt verdict', async () => {
    await stack.child({ id: 'c', parent: 'parent', state: 'cached' });
    const throwing: ListingCache = {
      cachedSnapshot: () => {
        throw new Error('database is locked');
      },
    };
    stack.resetCounts();
    expect(await listChildren({ ...stack.ctx, sessionProjectionCache: throwing }, P)).toEqual([child('c')]);
    expect(stack.persistence.bodyReads).toBe(1);
  });

  it('a poisoned row (the unit’s view throws on its state) falls to rung 3 and the right value is listed', async () => {
    const c = await stack.child({ id: 'c', parent: 'parent', state: 'cold' });
    stack.cache.put(subjectOf(c), SessionLogOffset(0), {
      subagent: { stateVersion: 2, cut: c.cursor, state: { identity: { mode: 'continuable', seq: 0 } } },
    });
    stack.resetCounts();
    expect(await listChildren(stack.ctx, P)).toEqual([child('c')]);
    expect(stack.persistence.bodyReads).toBe(1);
  });

  it('a row whose cut predates the descriptor (the null sentinel) falls to rung 3', async () => {
    const c = await stack.child({
      id: 'c',
      parent: 'parent',
      state: 'cold',
      descriptor: null,
      extra: [descriptorEvent({ version: 2, mode: 'continuable', label: 'late' })],
    });
    const before = stack.registry.foldAll(c.header, c.events.slice(0, -1)).rows;
    stack.cache.put(subjectOf(c), SessionLogOffset(0), before);
    expect(stack.cache.cachedSnapshot(subjectOf(c), SessionLogOffset(0), ['subagent'])?.values).toEqual({
      subagent: null,
    });
    stack.resetCounts();
    expect(await listChildren(stack.ctx, P)).toEqual([child('c', 'late')]);
    expect(stack.persistence.bodyReads).toBe(1);
  });

  it('a row without the subagent key (absent key) falls to rung 3', async () => {
    const c = await stack.child({ id: 'c', parent: 'parent', state: 'cold' });
    const { title } = stack.registry.foldAll(c.header, c.events).rows;
    stack.cache.put(subjectOf(c), SessionLogOffset(0), { title: title! });
    stack.resetCounts();
    expect(await listChildren(stack.ctx, P)).toEqual([child('c')]);
    expect(stack.persistence.bodyReads).toBe(1);
  });
});

describe('rung 3: one body-bearing observation', () => {
  it('observes with projectionMode "all", no events, the caller’s signal and no retention (compute and discard), then disposes the observation', async () => {
    await stack.child({ id: 'c', parent: 'parent', state: 'cold' });
    const observe = vi.spyOn(stack.query, 'observeSession');
    const signal = new AbortController().signal;
    expect(await listChildren(stack.ctx, P, signal)).toEqual([child('c')]);
    expect(observe).toHaveBeenCalledWith('c', {
      projectionMode: 'all',
      window: { last: 0 },
      retainPrepared: false,
      signal,
    });
    expect(stack.query.outstandingLeases).toBe(0);
    expect(stack.preparations.stats().outstandingLeases).toBe(0);
  });

  it('compares the identity’s seq with the observation’s inheritedEventCount: an ancestor’s identity is not the child’s', async () => {
    const ancestor = await stack.child({ id: 'ancestor', parent: 'elsewhere', state: 'live', turns: 2 });
    await stack.child({ id: 'a-own', parent: 'parent', state: 'cold', seed: { from: ancestor } });
    await stack.child({
      id: 'b-inherited',
      parent: 'parent',
      state: 'cold',
      seed: { from: ancestor },
      descriptor: null,
    });
    expect(await listChildren(stack.ctx, P)).toEqual([
      child('a-own'),
      { kind: 'diagnostic', id: 'b-inherited', reason: 'corrupt' },
    ]);
  });

  it('compute and discard: every listing pays one observation per seeded child or cache miss, and writes nothing back', async () => {
    const source = await stack.ordinary('source', { live: true, turns: 1 });
    const cold = await stack.child({ id: 'a', parent: 'parent', state: 'cold' });
    await stack.child({ id: 'b', parent: 'parent', state: 'cold', seed: { from: source } });
    const put = vi.spyOn(stack.cache, 'put');
    stack.resetCounts();
    await listChildren(stack.ctx, P);
    await listChildren(stack.ctx, P);
    expect(stack.observed.observed).toEqual(['a', 'b', 'a', 'b']);
    expect(put).not.toHaveBeenCalled();
    expect(stack.cache.cachedSnapshot(subjectOf(cold), SessionLogOffset(0))).toBeUndefined();
  });

  it('lifecycle witness: an untouched cold child passes it', async () => {
    await stack.child({
      id: 'c',
      parent: 'parent',
      state: 'cold',
      header: { cwd: '/w', agentPreset: 'coder', delegationDepth: 2 },
    });
    expect(await listChildren(stack.ctx, P)).toEqual([child('c')]);
  });

  it('lifecycle witness: the field set is version, id, createdAt, cwd, parentSession, isSeeded, delegationDepth, origin, agentPreset', () => {
    // A set (derived from the header's fields, in their order): a field added to the header must
    // be named a witness or not here, on purpose.
    expect([...LIFECYCLE_WITNESS_FIELDS].sort()).toEqual(
      [
        'version',
        'id',
        'createdAt',
        'cwd',
        'parentSession',
        'isSeeded',
        'delegationDepth',
        'origin',
        'agentPreset',
      ].sort(),
    );
  });

  // A session deleted and published again under the same id between enumeration and observation.
  const republished: [string, (stack: ListingStack, source: Session) => Promise<unknown>][] = [
    ['createdAt', (s) => s.child({ id: 'c', parent: 'parent', state: 'cold', createdAt: 999 })],
    [
      'cwd',
      (s) => s.child({ id: 'c', parent: 'parent', state: 'cold', createdAt: 100, header: { cwd: '/other' } }),
    ],
    ['parentSession', (s) => s.child({ id: 'c', parent: 'new-owner', state: 'cold', createdAt: 100 })],
    [
      'isSeeded',
      (s, source) =>
        s.child({ id: 'c', parent: 'parent', state: 'cold', createdAt: 100, seed: { from: source } }),
    ],
    [
      'delegationDepth',
      (s) =>
        s.child({ id: 'c', parent: 'parent', state: 'cold', createdAt: 100, header: { delegationDepth: 3 } }),
    ],
    ['origin', (s) => s.ordinary('c', { parentSession: 'parent', createdAt: 100 })],
    [
      'agentPreset',
      (s) =>
        s.child({
          id: 'c',
          parent: 'parent',
          state: 'cold',
          createdAt: 100,
          header: { agentPreset: 'coder' },
        }),
    ],
  ];
  it.each(republished)(
    'lifecycle witness: a child republished with another %s between enumeration and observation is a corrupt row, leaking nothing of the new one',
    async (_field, republish) => {
      const source = await stack.ordinary('source', { live: true });
      await stack.child({ id: 'c', parent: 'parent', state: 'cold', createdAt: 100 });
      await stack.child({ id: 'sibling', parent: 'parent', state: 'cold', createdAt: 200 });
      stack.observed.beforeObserve = async (id) => {
        if (id !== 'c') return;
        stack.observed.beforeObserve = undefined;
        await stack.persistence.delete(id);
        await republish(stack, source);
      };
      expect(await listChildren(stack.ctx, P)).toEqual([
        { kind: 'diagnostic', id: 'c', reason: 'corrupt' },
        child('sibling'),
      ]);
      expect(stack.query.outstandingLeases).toBe(0);
    },
  );

  it('lifecycle witness: another header version is a corrupt row', async () => {
    await stack.child({ id: 'c', parent: 'parent', state: 'cold' });
    stack.observed.tamperCorpus = (rows) =>
      rows.map((r) => (r.header.id === 'c' ? { ...r, header: { ...r.header, version: 2 } } : r));
    expect(await listChildren(stack.ctx, P)).toEqual([{ kind: 'diagnostic', id: 'c', reason: 'corrupt' }]);
  });

  it('lifecycle witness: an observation of another id is a corrupt row', async () => {
    await stack.child({ id: 'c', parent: 'parent', state: 'cold' });
    await stack.child({ id: 'x', parent: 'other', state: 'cold' });
    const inner = stack.observed.inner;
    stack.observed.beforeObserve = undefined;
    const redirected = {
      ...stack.ctx,
      sessionQuery: {
        listSessions: inner.listSessions.bind(inner),
        observeSession: (_id: SessionId, options?: Parameters<typeof inner.observeSession>[1]) =>
          inner.observeSession(SessionId('x'), options),
      },
    };
    expect(await listChildren(redirected, P)).toEqual([{ kind: 'diagnostic', id: 'c', reason: 'corrupt' }]);
    expect(stack.query.outstandingLeases).toBe(0);
  });

  it('a child attached since enumeration is observed live and listed running (live wins after the await)', async () => {
    const c = await stack.child({ id: 'c', parent: 'parent', state: 'cold' });
    stack.observed.beforeObserve = () => {
      stack.store.attach(c);
    };
    expect(await listChildren(stack.ctxWithoutCache, P)).toEqual([child('c', 'label-c', 'running')]);
  });
});

describe('per-child isolation', () => {
  it('a failed cold read is one unavailable row; sibling reads, live rows and cached rows are unaffected', async () => {
    await stack.child({ id: 'a', parent: 'parent', state: 'cold', createdAt: 1 });
    await stack.child({ id: 'b', parent: 'parent', state: 'cold', createdAt: 2 });
    await stack.child({ id: 'c', parent: 'parent', state: 'cached', createdAt: 3 });
    await stack.child({ id: 'd', parent: 'parent', state: 'live', createdAt: 4, extra: fixtureTurn(9) });
    stack.observed.failing.add('a');
    expect(await listChildren(stack.ctx, P)).toEqual([
      { kind: 'diagnostic', id: 'a', reason: 'unavailable' },
      child('b'),
      child('c'),
      child('d', 'label-d', 'running'),
    ]);
  });

  it('a child that vanished between enumeration and observation is an unavailable row', async () => {
    await stack.child({ id: 'gone', parent: 'parent', state: 'cold' });
    stack.observed.beforeObserve = (id) => stack.persistence.delete(id);
    expect(await listChildren(stack.ctx, P)).toEqual([
      { kind: 'diagnostic', id: 'gone', reason: 'unavailable' },
    ]);
  });

  it('a corpus failure fails the whole enumeration (isolation covers cold reads only)', async () => {
    await stack.child({ id: 'c', parent: 'parent', state: 'live' });
    vi.spyOn(stack.jsonl, 'list').mockRejectedValue(new Error('disk offline'));
    await expect(listChildren(stack.ctx, P)).rejects.toMatchObject({ code: 'SUBAGENT_CONTROL_QUERY_FAILED' });
  });
});
