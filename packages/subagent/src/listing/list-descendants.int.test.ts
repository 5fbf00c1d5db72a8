import { SessionId } from '@strand/session';
import { batchGate } from '@strand/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listingStack, type ListingStack } from '../testing/listing-stack.js';
import { listDescendants } from './list-descendants.js';
import { SUBAGENT_COLD_READ_CONCURRENCY } from './limits.js';

let stack: ListingStack;
const R = SessionId('root');

beforeEach(async () => {
  stack = await listingStack();
  await stack.ordinary('root');
});
afterEach(async () => {
  await stack.close();
});

describe('listDescendants', () => {
  it('lists the whole subagent tree in pre-order, each row with its parentId and depth, through the same ladder', async () => {
    await stack.child({ id: 'a', parent: 'root', state: 'cached', createdAt: 1 });
    await stack.child({ id: 'b', parent: 'root', state: 'live', createdAt: 2 });
    await stack.child({
      id: 'a2',
      parent: 'a',
      state: 'cold',
      createdAt: 4,
      descriptor: { version: 2, mode: 'one-shot' },
    });
    await stack.child({ id: 'a1', parent: 'a', state: 'live', createdAt: 3 });
    await stack.child({ id: 'a1x', parent: 'a1', state: 'cold', createdAt: 5 });
    await stack.child({ id: 'b1', parent: 'b', state: 'cold', createdAt: 6, descriptor: null });
    await stack.ordinary('plain-fork', { parentSession: 'a' });
    stack.resetCounts();
    const rows = await listDescendants(stack.ctx, R);
    expect(rows).toEqual([
      {
        kind: 'child',
        id: 'a',
        activity: 'inactive',
        hasChildren: true,
        mode: 'continuable',
        label: 'label-a',
        parentId: 'root',
        depth: 1,
      },
      {
        kind: 'child',
        id: 'a1',
        activity: 'running',
        hasChildren: true,
        mode: 'continuable',
        label: 'label-a1',
        parentId: 'a',
        depth: 2,
      },
      {
        kind: 'child',
        id: 'a1x',
        activity: 'inactive',
        hasChildren: false,
        mode: 'continuable',
        label: 'label-a1x',
        parentId: 'a1',
        depth: 3,
      },
      {
        kind: 'child',
        id: 'a2',
        activity: 'inactive',
        hasChildren: false,
        mode: 'one-shot',
        parentId: 'a',
        depth: 2,
      },
      {
        kind: 'child',
        id: 'b',
        activity: 'running',
        hasChildren: true,
        mode: 'continuable',
        label: 'label-b',
        parentId: 'root',
        depth: 1,
      },
      { kind: 'diagnostic', id: 'b1', reason: 'corrupt', parentId: 'b', depth: 2 },
    ]);
    // a: cache hit; a1, b: live; a2, a1x, b1: one observation each.
    expect([...stack.observed.observed].sort()).toEqual(['a1x', 'a2', 'b1']);
    expect(stack.persistence.bodyReads).toBe(3);
  });

  it('traverses through a child that gets no row (creation window) or a diagnostic row', async () => {
    await stack.child({ id: 'window', parent: 'root', state: 'live', descriptor: null, createdAt: 1 });
    await stack.child({ id: 'debris', parent: 'root', state: 'cold', descriptor: null, createdAt: 2 });
    await stack.child({ id: 'under-window', parent: 'window', state: 'cold', createdAt: 3 });
    await stack.child({ id: 'under-debris', parent: 'debris', state: 'cold', createdAt: 4 });
    expect((await listDescendants(stack.ctx, R)).map((r) => [r.id, r.kind, r.parentId, r.depth])).toEqual([
      ['under-window', 'child', 'window', 2],
      ['debris', 'diagnostic', 'root', 1],
      ['under-debris', 'child', 'debris', 2],
    ]);
  });

  it('isolates a failed cold read to its row and keeps the tree around it', async () => {
    await stack.child({ id: 'a', parent: 'root', state: 'cold', createdAt: 1 });
    await stack.child({ id: 'a1', parent: 'a', state: 'cold', createdAt: 2 });
    stack.observed.failing.add('a');
    expect(await listDescendants(stack.ctx, R)).toEqual([
      { kind: 'diagnostic', id: 'a', reason: 'unavailable', parentId: 'root', depth: 1 },
      {
        kind: 'child',
        id: 'a1',
        activity: 'inactive',
        hasChildren: false,
        mode: 'continuable',
        label: 'label-a1',
        parentId: 'a',
        depth: 2,
      },
    ]);
  });

  it(`shares one bound of ${SUBAGENT_COLD_READ_CONCURRENCY} cold reads across the whole tree`, async () => {
    for (let i = 0; i < 5; i++) {
      await stack.child({ id: `c${i}`, parent: 'root', state: 'cold' });
      await stack.child({ id: `c${i}-g`, parent: `c${i}`, state: 'cold' });
    }
    // Every read waits until a full bound of them runs at once: one more would show in the peak.
    stack.observed.beforeObserve = batchGate(SUBAGENT_COLD_READ_CONCURRENCY, 10);
    stack.resetCounts();
    expect(await listDescendants(stack.ctx, R)).toHaveLength(10);
    expect(stack.observed.observed).toHaveLength(10);
    expect(stack.observed.peak).toBe(SUBAGENT_COLD_READ_CONCURRENCY);
  });

  it('the required-service errors apply to descendants too, even with no descendants', async () => {
    await expect(
      listDescendants({ ...stack.ctx, sessionQuery: undefined }, SessionId('leaf')),
    ).rejects.toMatchObject({ code: 'SUBAGENT_CONTROL_QUERY_UNAVAILABLE' });
  });
});
