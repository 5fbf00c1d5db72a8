import { afterEach, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { EventsFeed, eventsStep } from './events-feed.js';
import { SessionLogOffset } from '@strand/session';
import { framesOf, openFollower, someEvents } from '../testing/follow-kit.js';

/** The seqs of every `follow.events` frame a follower got, in order. */
function seqsSent(out: Parameters<typeof framesOf>[0]): number[] {
  return framesOf(out).flatMap((frame) =>
    frame.method === 'follow.events' ? (frame.params['events'] as { seq: number }[]).map((e) => e.seq) : [],
  );
}

describe('eventsStep', () => {
  it('sends exactly the part of a batch past what the follower holds, and refuses a gap', () => {
    fc.assert(
      fc.property(fc.nat(50), fc.nat(50), fc.nat(10), (nextSeq, first, length) => {
        const step = eventsStep(nextSeq, first, length);
        if (length === 0 || first + length <= nextSeq) expect(step.kind).toBe('skip');
        else if (nextSeq < first) expect(step.kind).toBe('gap');
        else expect(step).toEqual({ kind: 'send', offset: nextSeq - first, nextSeq: first + length });
      }),
    );
  });
});

describe('EventsFeed', () => {
  afterEach(() => vi.restoreAllMocks());

  it('any overlap of backfills and batches gives each follower contiguous seqs from its cursor, each once', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 8 }),
        fc.array(fc.nat(3), { minLength: 1, maxLength: 4 }),
        (sizes, cursors) => {
          const feed = new EventsFeed();
          const followers = cursors.map((cursor, i) => {
            const follower = openFollower(`f${i}`);
            feed.begin(follower.queue, cursor);
            return { ...follower, cursor };
          });
          const log = someEvents(0, 3);
          // Each follower first backfills from the durable prefix (3 events), then batches follow.
          for (const { queue } of followers)
            feed.backfill(queue, { cursor: SessionLogOffset(log.length), events: log });
          for (const size of sizes) {
            const batch = someEvents(log.length, size);
            log.push(...batch);
            feed.batch(
              followers.map((f) => f.queue),
              batch,
            );
          }
          for (const { out, cursor } of followers)
            expect(seqsSent(out)).toEqual(log.slice(cursor).map((event) => event.seq));
        },
      ),
    );
  });

  it('serializes a batch once for every follower it fits whole', () => {
    const feed = new EventsFeed();
    const followers = [openFollower('f1'), openFollower('f2'), openFollower('f3')];
    for (const { queue } of followers) feed.begin(queue, 4);
    const stringify = vi.spyOn(JSON, 'stringify');
    feed.batch(
      followers.map((f) => f.queue),
      someEvents(4, 2),
    );
    expect(stringify).toHaveBeenCalledTimes(1);
    for (const { out } of followers) expect(seqsSent(out)).toEqual([4, 5]);
  });

  it('a batch past what a follower holds resyncs it (gap) instead of skipping seqs', () => {
    const feed = new EventsFeed();
    const { queue, out, drops } = openFollower('f1');
    feed.begin(queue, 2);
    feed.batch([queue], someEvents(3, 1));
    expect(framesOf(out).map((frame) => [frame.method, frame.params['reason']])).toEqual([
      ['follow.resync', 'gap'],
    ]);
    expect(drops).toEqual([queue]);
  });

  it('holds and lowest follow what each follower was sent', () => {
    const feed = new EventsFeed();
    const a = openFollower('a').queue;
    const b = openFollower('b').queue;
    feed.begin(a, 2);
    feed.begin(b, 5);
    expect(feed.lowest([a, b])).toBe(2);
    expect(feed.lowest([])).toBeUndefined();
    expect(feed.holds(a, 1)).toBe(true);
    expect(feed.holds(a, 2)).toBe(false);
    feed.batch([a], someEvents(2, 2));
    expect(feed.holds(a, 3)).toBe(true);
    expect(feed.lowest([a, b])).toBe(4);
  });
});
