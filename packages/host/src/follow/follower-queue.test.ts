import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SessionId } from '@strand/session';
import { FollowerQueue } from './follower-queue.js';
import { fakeOutbound, framesOf } from '../testing/follow-kit.js';

const FEEDS = ['events', 'projection', 'state', 'draft', 'subagents'] as const;

type Op =
  | { readonly kind: 'push'; readonly feed: number }
  | { readonly kind: 'open' }
  | { readonly kind: 'drop' }
  | { readonly kind: 'congest' }
  | { readonly kind: 'close' };

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.integer({ min: 0, max: FEEDS.length - 1 }).map((feed) => ({ kind: 'push' as const, feed })),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'open' as const }) },
  { weight: 1, arbitrary: fc.constantFrom<Op>({ kind: 'drop' }, { kind: 'congest' }, { kind: 'close' }) },
);

function newQueue(maxQueuedBytes = 100) {
  const out = fakeOutbound();
  const drops: FollowerQueue[] = [];
  const queue = new FollowerQueue(
    { followId: 'f1', generation: 7, sessionId: SessionId('s1') },
    out,
    maxQueuedBytes,
    (q) => drops.push(q),
  );
  return { queue, out, drops };
}

describe('FollowerQueue', () => {
  it('frames from any interleaving of feeds reach the follower in the order they were pushed, none after its drop', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const { queue, out, drops } = newQueue();
        const pushed: string[] = [];
        const perFeed = FEEDS.map(() => 0);
        let opened = false;
        let sentAtDrop: number | undefined;
        for (const step of ops) {
          if (step.kind === 'push') {
            const text = queue.frame(`follow.${FEEDS[step.feed]}`, `,"n":${perFeed[step.feed]!++}`);
            if (!queue.dropped) pushed.push(text);
            queue.push(text);
          } else if (step.kind === 'open') {
            opened = true;
            queue.open();
          } else if (step.kind === 'drop') queue.drop();
          else if (step.kind === 'congest') out.bufferedAmount = 1000;
          else out.open = false;
          if (queue.dropped) sentAtDrop ??= out.sent.length;
        }
        const resyncs = out.sent.filter((text) => text.includes('"follow.resync"'));
        const frames = out.sent.filter((text) => !text.includes('"follow.resync"'));
        // In push order: what went out is the start of what was pushed while the queue stood.
        expect(frames).toEqual(pushed.slice(0, frames.length));
        if (!opened) expect(frames).toEqual([]);
        // Everything, when nothing ever stopped it.
        if (opened && sentAtDrop === undefined) expect(frames).toEqual(pushed);
        // Nothing after the drop, and a resync is the last frame, once.
        if (sentAtDrop !== undefined) expect(out.sent).toHaveLength(sentAtDrop);
        expect(resyncs.length).toBeLessThanOrEqual(1);
        if (resyncs.length === 1) expect(out.sent.at(-1)).toBe(resyncs[0]);
        // The hub hears of a drop the queue made itself, once; not of one it asked for.
        expect(drops.length).toBeLessThanOrEqual(1);
      }),
    );
  });

  it('holds frames until open, then sends them in order', () => {
    const { queue, out } = newQueue();
    queue.push('a');
    queue.push('b');
    expect(out.sent).toEqual([]);
    queue.open();
    queue.push('c');
    expect(out.sent).toEqual(['a', 'b', 'c']);
  });

  it('a slow consumer gets follow.resync and is dropped: the hub is told, later frames go nowhere', () => {
    const { queue, out, drops } = newQueue(100);
    queue.open();
    out.bufferedAmount = 101;
    queue.push('a');
    queue.push('b');
    expect(framesOf(out)).toEqual([
      {
        jsonrpc: '2.0',
        method: 'follow.resync',
        params: { followId: 'f1', generation: 7, reason: 'slow-consumer' },
      },
    ]);
    expect(drops).toEqual([queue]);
  });

  it('a closed socket drops the follower without a frame', () => {
    const { queue, out, drops } = newQueue();
    queue.open();
    out.open = false;
    queue.push('a');
    expect(out.sent).toEqual([]);
    expect(drops).toEqual([queue]);
  });

  it('a drop the hub asked for sends nothing and tells nobody', () => {
    const { queue, out, drops } = newQueue();
    queue.push('held');
    queue.drop();
    queue.open();
    queue.resync('gap');
    expect(out.sent).toEqual([]);
    expect(drops).toEqual([]);
  });

  it("frame wraps the shared fields in this follower's envelope", () => {
    const { queue } = newQueue();
    expect(JSON.parse(queue.frame('follow.subagents', ''))).toEqual({
      jsonrpc: '2.0',
      method: 'follow.subagents',
      params: { followId: 'f1', generation: 7 },
    });
    expect(JSON.parse(queue.frame('follow.projection', ',"key":"k","value":1,"seq":3'))).toEqual({
      jsonrpc: '2.0',
      method: 'follow.projection',
      params: { followId: 'f1', generation: 7, key: 'k', value: 1, seq: 3 },
    });
  });
});
