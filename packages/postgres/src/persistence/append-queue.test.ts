import { describe, expect, it } from 'vitest';
import { Session, SessionId, type SessionEvent } from '@strand/session';
import { testHeader } from '@strand/test-support';
import { AppendQueues, type WriteResult } from './append-queue.js';

const id = SessionId('queued');

/** Real envelopes: `count` title events continuing `session`'s log. */
async function batch(session: Session, count: number): Promise<readonly SessionEvent[]> {
  return session.append(
    Array.from({ length: count }, (_, i) => ({ type: 'session/title', data: { title: `${i}` } })),
  );
}

/** A write seam that records each group and settles only when the test says so. */
function manualWrites(): {
  queues: AppendQueues;
  groups: number[][];
  settle: (outcome?: Error) => void;
} {
  const groups: number[][] = [];
  const waiting: { resolve: (r: WriteResult) => void; reject: (e: Error) => void }[] = [];
  const queues = new AppendQueues(
    (_id, events) =>
      new Promise<WriteResult>((resolve, reject) => {
        groups.push(events.map((e) => e.seq));
        waiting.push({ resolve, reject });
      }),
  );
  return {
    queues,
    groups,
    settle: (outcome) => {
      const next = waiting.shift()!;
      if (outcome === undefined) next.resolve({ revision: `r${groups.length}`, storedBytes: 1 });
      else next.reject(outcome);
    },
  };
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('AppendQueues', () => {
  it('starts a lone append at once and coalesces the appends that arrive meanwhile into one ordered write', async () => {
    const session = new Session({ header: testHeader('queued') });
    const { queues, groups, settle } = manualWrites();
    const first = queues.enqueue(id, await batch(session, 2));
    await tick();
    expect(groups).toEqual([[0, 1]]);
    const later = [queues.enqueue(id, await batch(session, 1)), queues.enqueue(id, await batch(session, 3))];
    expect(queues.busy(id)).toBe(true);
    settle();
    await first;
    await tick();
    expect(groups).toEqual([
      [0, 1],
      [2, 3, 4, 5],
    ]);
    settle();
    expect(await Promise.all(later)).toEqual([
      { revision: 'r2', storedBytes: 1 },
      { revision: 'r2', storedBytes: 1 },
    ]);
    await queues.idle(id);
    expect(queues.busy(id)).toBe(false);
  });

  it('refuses a queued append that does not continue the one before it, "expected N, got M"', async () => {
    const session = new Session({ header: testHeader('queued') });
    const { queues, groups, settle } = manualWrites();
    const events = await batch(session, 2);
    const first = queues.enqueue(id, events);
    await tick();
    const stale = queues.enqueue(id, events);
    settle();
    await first;
    await expect(stale).rejects.toMatchObject({
      code: 'PERSISTENCE_SEQ_CONFLICT',
      message: /expected 2, got 0/,
    });
    expect(groups).toEqual([[0, 1]]);
  });

  it('after a failed write refuses the appends built on it and still writes one that does not depend on it', async () => {
    const session = new Session({ header: testHeader('queued') });
    const { queues, groups, settle } = manualWrites();
    const failed = await batch(session, 2);
    const doomed = queues.enqueue(id, failed);
    await tick();
    const builtOnIt = queues.enqueue(id, await batch(session, 1));
    // Another writer of the same session, starting where the failed write started.
    const retry = new Session({ header: testHeader('queued') });
    const independent = queues.enqueue(id, await batch(retry, 1));
    settle(new Error('disk says no'));
    await expect(doomed).rejects.toThrow('disk says no');
    await expect(builtOnIt).rejects.toThrow('disk says no');
    await tick();
    settle();
    await expect(independent).resolves.toBeDefined();
    expect(groups).toEqual([[0, 1], [0]]);
    await queues.idleAll();
  });
});
