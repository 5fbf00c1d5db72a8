import { bomb } from '@strand/projection/testing';
import { SessionId } from '@strand/session';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listingStack, type ListingStack } from '../testing/listing-stack.js';
import { listChildren } from './list-children.js';

// The listing contract, "listChildren row shape and consuming surfaces": the four-state mapping, and the
// reading of packages/subagent/README.md for a projection computation that fails.

/** `bomb` breaks the unit contract on purpose: it throws on `test/boom`. */
const BOOM = { type: 'test/boom', data: {} };

let stack: ListingStack;
const P = SessionId('parent');

beforeEach(async () => {
  stack = await listingStack({ units: [bomb] });
});
afterEach(async () => {
  await stack.close();
});

describe('four-state mapping', () => {
  it('a snapshot with a non-null identity is a child row: kind, id, activity, hasChildren, mode and label — no seq', async () => {
    await stack.child({
      id: 'a',
      parent: 'parent',
      state: 'live',
      descriptor: { version: 2, mode: 'continuable', label: 'keeper' },
    });
    await stack.child({
      id: 'b',
      parent: 'parent',
      state: 'cold',
      descriptor: { version: 2, mode: 'one-shot', label: 'scout' },
    });
    await stack.child({
      id: 'c',
      parent: 'parent',
      state: 'cached',
      descriptor: { version: 2, mode: 'one-shot' },
    });
    const rows = await listChildren(stack.ctx, P);
    expect(rows).toEqual([
      {
        kind: 'child',
        id: 'a',
        activity: 'running',
        hasChildren: false,
        mode: 'continuable',
        label: 'keeper',
      },
      { kind: 'child', id: 'b', activity: 'inactive', hasChildren: false, mode: 'one-shot', label: 'scout' },
      { kind: 'child', id: 'c', activity: 'inactive', hasChildren: false, mode: 'one-shot' },
    ]);
    expect(rows.map((r) => Object.keys(r))).toEqual([
      ['kind', 'id', 'activity', 'hasChildren', 'mode', 'label'],
      ['kind', 'id', 'activity', 'hasChildren', 'mode', 'label'],
      ['kind', 'id', 'activity', 'hasChildren', 'mode'],
    ]);
  });

  it('the null sentinel or an absent key on an inactive child is a corrupt diagnostic (settled debris, not subdivided)', async () => {
    await stack.child({ id: 'a-none', parent: 'parent', state: 'cold', descriptor: null });
    await stack.child({
      id: 'b-malformed',
      parent: 'parent',
      state: 'cold',
      descriptor: { raw: { version: 2, mode: 'continuable' } },
    });
    await stack.child({
      id: 'c-v3',
      parent: 'parent',
      state: 'cached',
      descriptor: { raw: { version: 3, mode: 'continuable', label: 'x' } },
    });
    expect(await listChildren(stack.ctx, P)).toEqual([
      { kind: 'diagnostic', id: 'a-none', reason: 'corrupt' },
      { kind: 'diagnostic', id: 'b-malformed', reason: 'corrupt' },
      { kind: 'diagnostic', id: 'c-v3', reason: 'corrupt' },
    ]);
  });

  it('the null sentinel on a running child is no row (the creation window)', async () => {
    await stack.child({ id: 'a', parent: 'parent', state: 'live', descriptor: null });
    await stack.child({ id: 'b', parent: 'parent', state: 'live', descriptor: { raw: 'garbage' } });
    expect(await listChildren(stack.ctx, P)).toEqual([]);
  });

  it('a failed cold full read is an unavailable diagnostic', async () => {
    await stack.child({ id: 'a', parent: 'parent', state: 'cold' });
    stack.observed.failing.add('a');
    expect(await listChildren(stack.ctx, P)).toEqual([
      { kind: 'diagnostic', id: 'a', reason: 'unavailable' },
    ]);
  });

  it('unsupported is never produced: an unknown descriptor version is corrupt when inactive, omitted when running', async () => {
    const v3 = { raw: { version: 3, mode: 'continuable', label: 'future' } } as const;
    await stack.child({ id: 'a', parent: 'parent', state: 'cold', descriptor: v3 });
    await stack.child({ id: 'b', parent: 'parent', state: 'live', descriptor: v3 });
    const rows = await listChildren(stack.ctx, P);
    expect(rows).toEqual([{ kind: 'diagnostic', id: 'a', reason: 'corrupt' }]);
    expect(rows.some((r) => r.kind === 'diagnostic' && r.reason === 'unsupported')).toBe(false);
  });
});

describe('a projection computation that fails (a unit throws)', () => {
  it('the cache never changes the verdict: a child whose unit failed after a row was written is corrupt with and without the cache', async () => {
    await stack.child({ id: 'a', parent: 'parent', state: 'cached', extra: [BOOM] });
    const corrupt = [{ kind: 'diagnostic', id: 'a', reason: 'corrupt' }];
    expect(await listChildren(stack.ctx, P)).toEqual(corrupt);
    expect(await listChildren(stack.ctxWithoutCache, P)).toEqual(corrupt);
  });

  it('a poisoned running child is a corrupt row, not omitted; siblings and the listing are unaffected', async () => {
    await stack.child({ id: 'a', parent: 'parent', state: 'live', extra: [BOOM] });
    await stack.child({ id: 'b', parent: 'parent', state: 'live' });
    expect(await listChildren(stack.ctx, P)).toEqual([
      { kind: 'diagnostic', id: 'a', reason: 'corrupt' },
      {
        kind: 'child',
        id: 'b',
        activity: 'running',
        hasChildren: false,
        mode: 'continuable',
        label: 'label-b',
      },
    ]);
  });

  it('a poisoned cold child is a corrupt row (SESSION_QUERY_CORRUPT_SESSION from a unit failure), live and cold alike', async () => {
    await stack.child({ id: 'a', parent: 'parent', state: 'cold', extra: [BOOM] });
    await stack.child({ id: 'b', parent: 'parent', state: 'cold', descriptor: null, extra: [BOOM] });
    await stack.child({ id: 'c', parent: 'parent', state: 'cold' });
    expect(await listChildren(stack.ctx, P)).toEqual([
      { kind: 'diagnostic', id: 'a', reason: 'corrupt' },
      { kind: 'diagnostic', id: 'b', reason: 'corrupt' },
      {
        kind: 'child',
        id: 'c',
        activity: 'inactive',
        hasChildren: false,
        mode: 'continuable',
        label: 'label-c',
      },
    ]);
    expect(stack.query.outstandingLeases).toBe(0);
  });
});
