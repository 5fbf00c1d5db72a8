import { SessionId } from '@strand/session';
import { batchGate } from '@strand/test-support';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { listingStack, type ListingStack } from '../testing/listing-stack.js';
import { listChildren } from './list-children.js';
import { SUBAGENT_COLD_READ_CONCURRENCY } from './limits.js';

// The listing scenarios of packages/subagent/README.md, one per test, on the real stack (JSONL+zstd files, SQLite
// projection cache, query service). Body reads are counted on the persistence every reader uses.

let stack: ListingStack;
const P = SessionId('parent');

beforeEach(async () => {
  stack = await listingStack();
  await stack.ordinary('parent');
});
afterEach(async () => {
  await stack.close();
});

describe('listChildren (acceptance)', () => {
  it('a live continuable child lists as child, running, with its label, with zero log reads', async () => {
    await stack.child({ id: 'c1', parent: 'parent', state: 'live', turns: 3 });
    stack.resetCounts();
    const rows = await listChildren(stack.ctx, P);
    expect(rows).toEqual([
      {
        kind: 'child',
        id: 'c1',
        activity: 'running',
        hasChildren: false,
        mode: 'continuable',
        label: 'label-c1',
      },
    ]);
    expect(stack.persistence.bodyReads).toBe(0);
    expect(stack.observed.observed).toEqual([]);
  });

  it('a settled (cold) child lists as inactive with its label', async () => {
    await stack.child({
      id: 'c1',
      parent: 'parent',
      state: 'cold',
      descriptor: { version: 2, mode: 'one-shot', label: 'scout' },
    });
    await stack.child({ id: 'c2', parent: 'parent', state: 'cached' });
    expect(await listChildren(stack.ctx, P)).toEqual([
      { kind: 'child', id: 'c1', activity: 'inactive', hasChildren: false, mode: 'one-shot', label: 'scout' },
      {
        kind: 'child',
        id: 'c2',
        activity: 'inactive',
        hasChildren: false,
        mode: 'continuable',
        label: 'label-c2',
      },
    ]);
  });

  it('orders by createdAt ascending, then id by code-unit order; ordinary forks are not listed', async () => {
    await stack.child({ id: 'b', parent: 'parent', state: 'cold', createdAt: 500 });
    await stack.child({ id: 'a', parent: 'parent', state: 'live', createdAt: 500 });
    await stack.child({ id: 'Z', parent: 'parent', state: 'cold', createdAt: 500 }); // 'Z' (0x5A) < 'a' (0x61)
    await stack.child({ id: 'early', parent: 'parent', state: 'cached', createdAt: 100 });
    await stack.child({ id: 'é', parent: 'parent', state: 'cold', createdAt: 500 }); // U+00E9 sorts after ASCII
    await stack.ordinary('fork-of-parent', { parentSession: 'parent', createdAt: 50 });
    await stack.child({ id: 'other-parents-child', parent: 'someone-else', state: 'cold', createdAt: 1 });
    const rows = await listChildren(stack.ctx, P);
    expect(rows.map((r) => r.id)).toEqual(['early', 'Z', 'a', 'b', 'é']);
  });

  it('a running child with no descriptor yet is omitted (creation window); the same child settled is a corrupt diagnostic', async () => {
    const child = await stack.child({ id: 'c1', parent: 'parent', state: 'live', descriptor: null });
    expect(await listChildren(stack.ctx, P)).toEqual([]);
    await stack.settle(child);
    expect(await listChildren(stack.ctx, P)).toEqual([{ kind: 'diagnostic', id: 'c1', reason: 'corrupt' }]);
  });

  it('two descriptors in the own suffix: the last one wins', async () => {
    const second = { type: 'subagent/descriptor', data: { version: 2, mode: 'one-shot', label: 'second' } };
    await stack.child({ id: 'live', parent: 'parent', state: 'live', extra: [second] });
    await stack.child({ id: 'cold', parent: 'parent', state: 'cold', extra: [second] });
    expect(await listChildren(stack.ctx, P)).toEqual([
      {
        kind: 'child',
        id: 'live',
        activity: 'running',
        hasChildren: false,
        mode: 'one-shot',
        label: 'second',
      },
      {
        kind: 'child',
        id: 'cold',
        activity: 'inactive',
        hasChildren: false,
        mode: 'one-shot',
        label: 'second',
      },
    ]);
  });

  it('a later malformed or unknown-version descriptor resets identity to null: corrupt when inactive, omitted when running', async () => {
    const malformed = { type: 'subagent/descriptor', data: { version: 2, mode: 'continuable' } };
    const unknownVersion = {
      type: 'subagent/descriptor',
      data: { version: 3, mode: 'continuable', label: 'x' },
    };
    await stack.child({ id: 'a-live-malformed', parent: 'parent', state: 'live', extra: [malformed] });
    await stack.child({ id: 'b-live-v3', parent: 'parent', state: 'live', extra: [unknownVersion] });
    await stack.child({ id: 'c-cold-malformed', parent: 'parent', state: 'cold', extra: [malformed] });
    await stack.child({ id: 'd-cached-v3', parent: 'parent', state: 'cached', extra: [unknownVersion] });
    expect(await listChildren(stack.ctx, P)).toEqual([
      { kind: 'diagnostic', id: 'c-cold-malformed', reason: 'corrupt' },
      { kind: 'diagnostic', id: 'd-cached-v3', reason: 'corrupt' },
    ]);
  });

  it('an unseeded cold child with a usable cache row is listed with zero body reads', async () => {
    await stack.child({ id: 'c1', parent: 'parent', state: 'cached', turns: 4 });
    stack.resetCounts();
    expect(await listChildren(stack.ctx, P)).toEqual([
      {
        kind: 'child',
        id: 'c1',
        activity: 'inactive',
        hasChildren: false,
        mode: 'continuable',
        label: 'label-c1',
      },
    ]);
    expect(stack.persistence.bodyReads).toBe(0);
    expect(stack.observed.observed).toEqual([]);
  });

  it('a seeded child never uses the cache rung and gets exactly one body-bearing observation', async () => {
    const source = await stack.ordinary('seed-source', { live: true, turns: 2 });
    const seeded = await stack.child({
      id: 'seeded',
      parent: 'parent',
      state: 'cached',
      seed: { from: source },
    });
    // A usable row exists for the seeded child's exact cut; listing must not use it.
    const subject = { header: seeded.header, incarnation: seeded.incarnation! };
    expect(stack.cache.cachedSnapshot(subject, seeded.inheritedEventCount, ['subagent'])).toBeDefined();
    const cachedSnapshot = vi.spyOn(stack.cache, 'cachedSnapshot');
    stack.resetCounts();
    expect(await listChildren(stack.ctx, P)).toEqual([
      {
        kind: 'child',
        id: 'seeded',
        activity: 'inactive',
        hasChildren: false,
        mode: 'continuable',
        label: 'label-seeded',
      },
    ]);
    expect(cachedSnapshot).not.toHaveBeenCalled();
    expect(stack.observed.observed).toEqual(['seeded']);
    expect(stack.persistence.bodyReads).toBe(1);
  });

  it('an identity whose seq lies in the inherited prefix is not the child’s own: it does not count', async () => {
    // A subagent that forks its own log: the fork inherits the ancestor's descriptor but has none of its own.
    const ancestor = await stack.child({ id: 'ancestor', parent: 'grandparent', state: 'live', turns: 2 });
    await stack.child({
      id: 'fork-cold',
      parent: 'parent',
      state: 'cold',
      seed: { from: ancestor },
      descriptor: null,
    });
    await stack.child({
      id: 'fork-live',
      parent: 'parent',
      state: 'live',
      seed: { from: ancestor },
      descriptor: null,
    });
    expect(await listChildren(stack.ctx, P)).toEqual([
      { kind: 'diagnostic', id: 'fork-cold', reason: 'corrupt' },
    ]);
  });

  it('one child’s failed cold read yields an unavailable row; siblings are unaffected; the next listing retries it (nothing is memoized)', async () => {
    await stack.child({ id: 'a', parent: 'parent', state: 'cold' });
    await stack.child({ id: 'b', parent: 'parent', state: 'cold' });
    await stack.child({ id: 'c', parent: 'parent', state: 'live' });
    stack.observed.failing.add('b');
    const first = await listChildren(stack.ctx, P);
    expect(first).toEqual([
      {
        kind: 'child',
        id: 'a',
        activity: 'inactive',
        hasChildren: false,
        mode: 'continuable',
        label: 'label-a',
      },
      { kind: 'diagnostic', id: 'b', reason: 'unavailable' },
      {
        kind: 'child',
        id: 'c',
        activity: 'running',
        hasChildren: false,
        mode: 'continuable',
        label: 'label-c',
      },
    ]);
    stack.observed.failing.clear();
    stack.resetCounts();
    const second = await listChildren(stack.ctx, P);
    expect(second[1]).toEqual({
      kind: 'child',
      id: 'b',
      activity: 'inactive',
      hasChildren: false,
      mode: 'continuable',
      label: 'label-b',
    });
    expect(stack.observed.observed).toEqual(['a', 'b']);
  });

  it.each([
    ['sessionProjections', 'SUBAGENT_CONTROL_PROJECTIONS_UNAVAILABLE'],
    ['sessions', 'SUBAGENT_CONTROL_SESSION_STORE_UNAVAILABLE'],
    ['sessionQuery', 'SUBAGENT_CONTROL_QUERY_UNAVAILABLE'],
  ] as const)('a missing %s fails with %s even when the parent has zero children', async (service, code) => {
    const ctx = { ...stack.ctx, [service]: undefined };
    await expect(listChildren(ctx, SessionId('childless'))).rejects.toMatchObject({
      name: 'SubagentControlError',
      code,
    });
    expect(stack.persistence.bodyReads).toBe(0);
  });

  it(`cold reads run at most ${SUBAGENT_COLD_READ_CONCURRENCY} at a time (observed peak)`, async () => {
    for (let i = 0; i < 12; i++)
      await stack.child({ id: `c${String(i).padStart(2, '0')}`, parent: 'parent', state: 'cold' });
    // Every read waits until a full bound of them runs at once: one more would show in the peak.
    stack.observed.beforeObserve = batchGate(SUBAGENT_COLD_READ_CONCURRENCY, 12);
    stack.resetCounts();
    const rows = await listChildren(stack.ctxWithoutCache, P);
    expect(rows).toHaveLength(12);
    expect(rows.every((r) => r.kind === 'child')).toBe(true);
    expect(stack.observed.observed).toHaveLength(12);
    expect(stack.observed.peak).toBe(SUBAGENT_COLD_READ_CONCURRENCY);
    expect(stack.persistence.bodyReads).toBe(12);
  });

  it('cold reads compute and discard: a listing leaves nothing in the preparation LRU', async () => {
    for (let i = 0; i < 6; i++)
      await stack.child({ id: `d${String(i).padStart(2, '0')}`, parent: 'parent', state: 'cold' });
    stack.resetCounts();
    const rows = await listChildren(stack.ctxWithoutCache, P);
    expect(rows).toHaveLength(6);
    expect(stack.persistence.bodyReads).toBe(6);
    expect(stack.preparations.stats()).toMatchObject({ entries: 0, outstandingLeases: 0 });
  });

  it('a configured bound (limits.coldReadConcurrency 2) is the observed peak', async () => {
    for (let i = 0; i < 8; i++)
      await stack.child({ id: `c${String(i).padStart(2, '0')}`, parent: 'parent', state: 'cold' });
    stack.observed.beforeObserve = batchGate(2, 8);
    stack.resetCounts();
    const rows = await listChildren({ ...stack.ctxWithoutCache, limits: { coldReadConcurrency: 2 } }, P);
    expect(rows).toHaveLength(8);
    expect(stack.observed.peak).toBe(2);
  });

  it('hasChildren is derived from headers only (no body reads of grandchildren)', async () => {
    await stack.child({ id: 'c1', parent: 'parent', state: 'cached' });
    await stack.child({ id: 'c2', parent: 'parent', state: 'cached' });
    await stack.child({ id: 'g1', parent: 'c1', state: 'cold', turns: 5 });
    await stack.ordinary('plain-fork-of-c2', { parentSession: 'c2' });
    stack.resetCounts();
    const rows = await listChildren(stack.ctx, P);
    expect(rows.map((r) => r.kind === 'child' && [r.id, r.hasChildren])).toEqual([
      ['c1', true],
      ['c2', false],
    ]);
    expect(stack.persistence.bodyReads).toBe(0);
  });
});
