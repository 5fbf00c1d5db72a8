import { SessionId } from '@strand/session';
import { eventually, latch } from '@strand/test-support';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { listingStack, type ListingStack } from '../testing/listing-stack.js';
import { listChildren } from './list-children.js';
import { listDescendants } from './list-descendants.js';

// The listing contract: "the caller's signal is checked before and after each persistence read, and a read
// that settles only after abort is rejected, normalized to the stable error code CANCELLED".

let stack: ListingStack;
const P = SessionId('parent');
/** Every lease the listing took is given back: the reads still running when it was cancelled end and dispose. */
const allDisposed = (): Promise<void> =>
  eventually(
    () => stack.query.outstandingLeases === 0 && stack.preparations.stats().outstandingLeases === 0,
    'every observation disposed',
  );

beforeEach(async () => {
  stack = await listingStack();
  for (let i = 0; i < 8; i++) await stack.child({ id: `c${i}`, parent: 'parent', state: 'cold' });
  stack.resetCounts();
});
afterEach(async () => {
  await stack.close();
});

describe('cancellation', () => {
  it('an already-aborted signal is CANCELLED before the corpus is listed or any log read', async () => {
    const list = vi.spyOn(stack.jsonl, 'list');
    await expect(listChildren(stack.ctx, P, AbortSignal.abort())).rejects.toMatchObject({
      name: 'SubagentControlError',
      code: 'CANCELLED',
    });
    expect(list).not.toHaveBeenCalled();
    expect(stack.persistence.bodyReads).toBe(0);
  });

  it('an abort while the corpus is being listed is CANCELLED, never not-found', async () => {
    const controller = new AbortController();
    const listing = listChildren(stack.ctx, P, controller.signal);
    controller.abort();
    await expect(listing).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(stack.observed.observed).toEqual([]);
  });

  it('an abort during cold reads rejects at once, starts no further read, and every observation is disposed', async () => {
    const controller = new AbortController();
    const { opened: held, open: release } = latch(); // every read waits here
    // Abort once the fourth read has started, while every read is held: ordered by the reads
    // themselves, not by a race between two timers.
    stack.observed.beforeObserve = (id) => {
      if (id === 'c3') queueMicrotask(() => controller.abort());
      return held;
    };
    await expect(listChildren(stack.ctxWithoutCache, P, controller.signal)).rejects.toMatchObject({
      code: 'CANCELLED',
    });
    expect(stack.observed.observed).toEqual(['c0', 'c1', 'c2', 'c3']);
    release(); // the reads in flight end after the rejection and dispose what they read
    await allDisposed();
    expect(stack.observed.observed).toEqual(['c0', 'c1', 'c2', 'c3']);
    // Still: no read started after the abort, even once the running ones ended.
    expect(stack.observed.observed).toEqual(['c0', 'c1', 'c2', 'c3']);
  });

  it('a read that settles after the abort is rejected as CANCELLED and its observation disposed', async () => {
    const controller = new AbortController();
    stack.observed.afterObserve = (id) => {
      if (id === 'c0') controller.abort();
    };
    const error: unknown = await listChildren(stack.ctxWithoutCache, P, controller.signal).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'CANCELLED' });
    await allDisposed();
  });

  it('the query’s abort code is normalized to CANCELLED with the original as cause', async () => {
    const controller = new AbortController();
    stack.observed.beforeObserve = () => controller.abort();
    const error = (await listChildren(stack.ctxWithoutCache, P, controller.signal).catch(
      (e: unknown) => e,
    )) as Error & { code: string };
    expect(error.code).toBe('CANCELLED');
    expect(error.cause).toBeDefined();
    expect(JSON.parse(JSON.stringify(error))).toMatchObject({
      name: 'SubagentControlError',
      code: 'CANCELLED',
    });
  });

  it('listDescendants is cancelled the same way and disposes every observation', async () => {
    await stack.child({ id: 'g', parent: 'c0', state: 'cold' });
    const controller = new AbortController();
    const { opened: held, open: release } = latch(); // every read waits here
    stack.observed.beforeObserve = () => {
      controller.abort();
      return held;
    };
    await expect(listDescendants(stack.ctxWithoutCache, P, controller.signal)).rejects.toMatchObject({
      code: 'CANCELLED',
    });
    release();
    await allDisposed();
  });
});
