import { openSync, readFileSync, writeSync, closeSync } from 'node:fs';
import path from 'node:path';
import { escapeSessionId } from '@strand/persistence';
import { Session, SessionId, SessionSeq, toFrozenJson, type SessionEvent } from '@strand/session';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { descriptorEvent } from '../descriptor.js';
import { listingStack, type ListingStack } from '../testing/listing-stack.js';
import { listChildren } from './list-children.js';
import { listDescendants } from './list-descendants.js';

// The listing contract, "Known boundary deviations (deliberately accepted)": each pinned, so a change to one
// of them is a decision, not an accident.

let stack: ListingStack;
const P = SessionId('parent');

beforeEach(async () => {
  stack = await listingStack();
});
afterEach(async () => {
  await stack.close();
});

/** Appends straight to the stored log, as a process that crashed before its next checkpoint would have. */
async function appendBehindTheCache(session: Session, data: unknown): Promise<void> {
  const event: SessionEvent = Object.freeze({
    type: 'subagent/descriptor',
    seq: SessionSeq(session.cursor),
    time: 5_000,
    data: toFrozenJson(data),
  });
  await stack.persistence.append(session.id, [event]);
}

describe('known boundary deviations', () => {
  it('multiple descriptors in the own suffix: the last one wins (formerly corrupt)', async () => {
    await stack.child({
      id: 'c',
      parent: 'parent',
      state: 'cold',
      extra: [descriptorEvent({ version: 2, mode: 'continuable', label: 'renamed' })],
    });
    expect(await listChildren(stack.ctx, P)).toEqual([
      {
        kind: 'child',
        id: 'c',
        activity: 'inactive',
        hasChildren: false,
        mode: 'continuable',
        label: 'renamed',
      },
    ]);
  });

  it('a live/persisted header conflict goes unnoticed: the live record forms the row (formerly corrupt)', async () => {
    const stored = await stack.child({
      id: 'c',
      parent: 'parent',
      state: 'cold',
      header: { cwd: '/persisted' },
    });
    const liveHeader = { ...stored.header, cwd: '/live' };
    const live = new Session({ header: liveHeader, events: stored.events, incarnation: stored.incarnation! });
    stack.store.attach(live);
    expect(await listChildren(stack.ctx, P)).toEqual([
      {
        kind: 'child',
        id: 'c',
        activity: 'running',
        hasChildren: false,
        mode: 'continuable',
        label: 'label-c',
      },
    ]);
  });

  it('a live/persisted conflict on parentSession lists the child under the live parent only', async () => {
    const stored = await stack.child({ id: 'c', parent: 'parent', state: 'cold' });
    stack.store.attach(
      new Session({
        header: { ...stored.header, parentSession: SessionId('adopter') },
        events: stored.events,
      }),
    );
    expect(await listChildren(stack.ctx, P)).toEqual([]);
    expect(await listChildren(stack.ctx, SessionId('adopter'))).toHaveLength(1);
  });

  it('a source-read failure on damaged storage is an unavailable row (formerly corrupt)', async () => {
    await stack.child({ id: 'damaged', parent: 'parent', state: 'cold', turns: 6 });
    await stack.child({ id: 'healthy', parent: 'parent', state: 'cold' });
    const file = path.join(stack.root, 'sessions', `${escapeSessionId('damaged')}.zst`);
    const size = readFileSync(file).length;
    const fd = openSync(file, 'r+');
    writeSync(fd, Buffer.alloc(24, 0xa5), 0, 24, Math.floor(size * 0.6));
    closeSync(fd);
    await expect(stack.persistence.inspect(SessionId('damaged'))).rejects.toMatchObject({
      code: 'PERSISTENCE_CORRUPT',
    });
    expect(await listChildren(stack.ctx, P)).toEqual([
      { kind: 'diagnostic', id: 'damaged', reason: 'unavailable' },
      {
        kind: 'child',
        id: 'healthy',
        activity: 'inactive',
        hasChildren: false,
        mode: 'continuable',
        label: 'label-healthy',
      },
    ]);
  });

  it('an unknown parent yields an empty list, not not-found (children and descendants alike)', async () => {
    await stack.child({ id: 'c', parent: 'parent', state: 'cold' });
    expect(await listChildren(stack.ctx, SessionId('nobody'))).toEqual([]);
    expect(await listDescendants(stack.ctx, SessionId('nobody'))).toEqual([]);
    expect(stack.persistence.bodyReads).toBe(0);
  });

  it('rung 2’s later-event window: an unseeded child whose log moved past its cache row keeps serving the row’s identity', async () => {
    const renamed = await stack.child({
      id: 'a',
      parent: 'parent',
      state: 'cached',
      descriptor: { version: 2, mode: 'continuable', label: 'first' },
    });
    const reset = await stack.child({
      id: 'b',
      parent: 'parent',
      state: 'cached',
      descriptor: { version: 2, mode: 'continuable', label: 'kept' },
    });
    await appendBehindTheCache(renamed, { version: 2, mode: 'continuable', label: 'second' });
    await appendBehindTheCache(reset, { version: 2, mode: 'continuable' }); // malformed: the log folds to null
    stack.resetCounts();
    expect(await listChildren(stack.ctx, P)).toEqual([
      {
        kind: 'child',
        id: 'a',
        activity: 'inactive',
        hasChildren: false,
        mode: 'continuable',
        label: 'first',
      },
      {
        kind: 'child',
        id: 'b',
        activity: 'inactive',
        hasChildren: false,
        mode: 'continuable',
        label: 'kept',
      },
    ]);
    expect(stack.persistence.bodyReads).toBe(0);
    // Without the cache the authoritative read shows what the log says.
    expect(await listChildren(stack.ctxWithoutCache, P)).toEqual([
      {
        kind: 'child',
        id: 'a',
        activity: 'inactive',
        hasChildren: false,
        mode: 'continuable',
        label: 'second',
      },
      { kind: 'diagnostic', id: 'b', reason: 'corrupt' },
    ]);
  });

  it('rung 2’s window never applies to a seeded child: it always takes the body-bearing read', async () => {
    const source = await stack.ordinary('source', { live: true });
    const seeded = await stack.child({
      id: 's',
      parent: 'parent',
      state: 'cached',
      seed: { from: source },
      descriptor: { version: 2, mode: 'continuable', label: 'first' },
    });
    await appendBehindTheCache(seeded, { version: 2, mode: 'continuable', label: 'second' });
    expect(await listChildren(stack.ctx, P)).toEqual([
      {
        kind: 'child',
        id: 's',
        activity: 'inactive',
        hasChildren: false,
        mode: 'continuable',
        label: 'second',
      },
    ]);
  });
});
