import { describe, expect, it } from 'vitest';
import { Session, type SessionEvent } from '@strand/session';
import { testHeader } from '@strand/test-support';
import { SessionFanout } from './session-fanout.js';
import type { RemoteTail } from './remote-tail.js';

/** A live session whose durable writes succeed until `fail` is set. */
function liveSession(id: string): { session: Session; fail: { now: boolean } } {
  const fail = { now: false };
  const session = new Session({
    header: testHeader(id),
    incarnation: 'i1',
    writer: { write: () => (fail.now ? Promise.reject(new Error('disk')) : Promise.resolve()) },
  });
  return { session, fail };
}

function fakeTail(): RemoteTail & { pulls: number; closed: boolean } {
  const tail = {
    pulls: 0,
    closed: false,
    pull: () => void tail.pulls++,
    close: () => void (tail.closed = true),
  };
  return tail as unknown as RemoteTail & { pulls: number; closed: boolean };
}

const note = { type: 'note', data: null };

describe('SessionFanout', () => {
  it('while live, passes on the durable batches and the write failure; once cold, nothing', async () => {
    const fanout = new SessionFanout();
    const { session, fail } = liveSession('s1');
    const batches: (readonly SessionEvent[])[] = [];
    let failures = 0;
    fanout.live(
      session,
      (batch) => batches.push(batch),
      () => failures++,
    );
    expect(fanout.session).toBe(session);
    await session.append(note);
    expect(batches.map((batch) => batch.map((event) => event.seq))).toEqual([[0]]);
    expect(fanout.cold()).toBe(session);
    expect(fanout.session).toBeUndefined();
    fail.now = true;
    await session.append(note).catch(() => undefined);
    expect(session.writeFailure).toBeDefined();
    expect(batches).toHaveLength(1);
    expect(failures).toBe(0);
  });

  it("tells a live session's write failure once", async () => {
    const fanout = new SessionFanout();
    const { session, fail } = liveSession('s1');
    let failures = 0;
    fanout.live(
      session,
      () => undefined,
      () => failures++,
    );
    fail.now = true;
    await session.append(note).catch(() => undefined);
    expect(failures).toBe(1);
  });

  it('makes a remote tail once while cold, and drops it when the session goes live here', () => {
    const fanout = new SessionFanout();
    const tail = fakeTail();
    let made = 0;
    const make = () => (made++, tail);
    fanout.pullRemote(make);
    fanout.pullRemote(make);
    expect([made, tail.pulls, tail.closed]).toEqual([1, 2, false]);
    fanout.live(
      liveSession('s1').session,
      () => undefined,
      () => undefined,
    );
    expect(tail.closed).toBe(true);
  });

  it('close stops the live subscription and the remote tail', async () => {
    const fanout = new SessionFanout();
    const tail = fakeTail();
    fanout.pullRemote(() => tail);
    fanout.close();
    expect(tail.closed).toBe(true);
    const { session } = liveSession('s2');
    const batches: unknown[] = [];
    fanout.live(
      session,
      (batch) => batches.push(batch),
      () => undefined,
    );
    fanout.close();
    await session.append(note);
    expect(batches).toEqual([]);
  });
});
