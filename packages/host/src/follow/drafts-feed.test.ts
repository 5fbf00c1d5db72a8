import { describe, expect, it } from 'vitest';
import { SessionId } from '@strand/session';
import { ManualClock } from '@strand/test-support';
import { DraftsFeed } from './drafts-feed.js';
import { EventsFeed } from './events-feed.js';
import type { LiveSession } from './follower-queue.js';
import { followedBy, framesOf, openFollower, someEvents, writeFailure } from '../testing/follow-kit.js';

const id = SessionId('s1');

function harness() {
  const clock = new ManualClock();
  const events = new EventsFeed();
  const ahead = openFollower('ahead', id);
  const behind = openFollower('behind', id);
  events.begin(ahead.queue, 6);
  events.begin(behind.queue, 3);
  const followed = {
    followers: new Set([ahead.queue, behind.queue]),
    session: { id, writeFailure: undefined } as LiveSession | undefined,
  };
  const feed = new DraftsFeed(followedBy({ s1: followed }), events, { intervalMs: 50, clock });
  const drafts = (out: typeof ahead.out) =>
    framesOf(out).flatMap((frame) => (frame.method === 'follow.draft' ? [frame.params['text']] : []));
  return { clock, ahead, behind, followed, feed, drafts };
}

describe('DraftsFeed', () => {
  it('goes only to followers already sent the step/start, paced per session', () => {
    const { clock, ahead, behind, feed, drafts } = harness();
    feed.offer(id, 5, 'a');
    feed.offer(id, 5, 'ab');
    feed.offer(id, 5, 'abc');
    expect(drafts(ahead.out)).toEqual(['a']);
    clock.advance(50);
    expect(drafts(ahead.out)).toEqual(['a', 'abc']);
    expect(drafts(behind.out)).toEqual([]);
    expect(framesOf(ahead.out)[0]?.params).toEqual({ followId: 'ahead', generation: 1, step: 5, text: 'a' });
  });

  it('a settling batch drops the pending draft; an ordinary one does not', () => {
    const { clock, ahead, feed, drafts } = harness();
    feed.offer(id, 5, 'a');
    feed.offer(id, 5, 'ab');
    feed.delivering(id, someEvents(6, 1, 'tool/call'));
    feed.offer(id, 5, 'abc');
    feed.delivering(id, someEvents(7, 1, 'assistant/message'));
    clock.advance(50);
    expect(drafts(ahead.out)).toEqual(['a']);
  });

  it('nothing of a session that is not live here, or stopped', () => {
    const { ahead, followed, feed, drafts } = harness();
    followed.session = { id, writeFailure: writeFailure('disk') };
    feed.offer(id, 5, 'a');
    followed.session = undefined;
    feed.offer(id, 5, 'b');
    feed.offer(SessionId('nobody'), 5, 'c');
    expect(drafts(ahead.out)).toEqual([]);
  });

  it('cancel keeps the pacing, forget starts it afresh', () => {
    const { ahead, feed, drafts } = harness();
    feed.offer(id, 5, 'a');
    feed.cancel(id);
    feed.offer(id, 5, 'b');
    expect(drafts(ahead.out)).toEqual(['a']);
    feed.forget(id);
    feed.offer(id, 5, 'c');
    expect(drafts(ahead.out)).toEqual(['a', 'c']);
  });
});
