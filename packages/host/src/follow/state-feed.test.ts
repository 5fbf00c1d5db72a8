import { describe, expect, it } from 'vitest';
import { SessionId } from '@strand/session';
import { StateFeed, stoppedBy } from './state-feed.js';
import type { LiveSession } from './follower-queue.js';
import { followedBy, framesOf, openFollower, writeFailure } from '../testing/follow-kit.js';

const id = SessionId('s1');

function osError(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

function harness(busy = false) {
  const a = openFollower('a', id);
  const b = openFollower('b', id);
  const followed = { followers: new Set([a.queue, b.queue]), session: undefined as LiveSession | undefined };
  const feed = new StateFeed(followedBy({ s1: followed }), () => busy);
  const states = (out: typeof a.out) => framesOf(out).map((frame) => frame.params);
  return { a, b, followed, feed, states };
}

describe('stoppedBy', () => {
  it('is absent while the session writes, and names the deepest OS code of the failure, never a path', () => {
    expect(stoppedBy({ writeFailure: undefined })).toBeUndefined();
    const failure = writeFailure('session write failed', osError('ENOSPC: /secret/path', 'ENOSPC'));
    expect(stoppedBy({ writeFailure: failure })).toEqual({
      code: 'SESSION_WRITE_FAILED',
      message: 'session write failed (ENOSPC)',
    });
    expect(stoppedBy({ writeFailure: writeFailure('odd', osError('x', 'not-an-os-code')) })?.message).toBe(
      'odd',
    );
  });
});

describe('StateFeed', () => {
  it('tells every follower the live session, busy and stopped', () => {
    const { a, b, feed, states } = harness(true);
    feed.live({ id, writeFailure: writeFailure('disk') });
    for (const out of [a.out, b.out])
      expect(states(out).map(({ live, busy, stopped }) => ({ live, busy, stopped }))).toEqual([
        { live: true, busy: true, stopped: { code: 'SESSION_WRITE_FAILED', message: 'disk' } },
      ]);
    expect(framesOf(a.out)[0]?.method).toBe('follow.state');
  });

  it('remembers a stop past the detach, to a later follower too, until the session attaches without one', () => {
    const { a, feed, states } = harness();
    feed.remember({ id, writeFailure: writeFailure('disk') });
    feed.cold(id);
    const late = openFollower('late', id);
    feed.joinedCold(late.queue);
    expect(states(a.out)).toEqual([
      {
        followId: 'a',
        generation: 1,
        live: false,
        busy: false,
        stopped: { code: 'SESSION_WRITE_FAILED', message: 'disk' },
      },
    ]);
    expect(states(late.out)).toHaveLength(1);
    feed.remember({ id, writeFailure: undefined });
    const later = openFollower('later', id);
    feed.joinedCold(later.queue);
    feed.cold(id);
    expect(states(later.out)).toEqual([]);
    expect(states(a.out).at(-1)).toEqual({ followId: 'a', generation: 1, live: false, busy: false });
  });

  it('a new follower of a live session hears only a stop', () => {
    const { feed } = harness();
    const healthy = openFollower('h', id);
    feed.joinedLive(healthy.queue, { id, writeFailure: undefined });
    expect(healthy.out.sent).toEqual([]);
    const stopped = openFollower('s', id);
    feed.joinedLive(stopped.queue, { id, writeFailure: writeFailure('disk') });
    expect(framesOf(stopped.out)[0]?.params['stopped']).toBeDefined();
  });

  it('a busy change says live while attached, and the remembered stop while cold', () => {
    const { a, followed, feed, states } = harness();
    followed.session = { id, writeFailure: undefined };
    feed.busyChanged(id, true);
    followed.session = undefined;
    feed.remember({ id, writeFailure: writeFailure('disk') });
    feed.busyChanged(id, false);
    feed.busyChanged(SessionId('nobody'), true);
    expect(states(a.out).map(({ live, busy, stopped }) => [live, busy, stopped !== undefined])).toEqual([
      [true, true, false],
      [false, false, true],
    ]);
  });
});
