import { describe, expect, it, vi } from 'vitest';
import { SessionId } from '@strand/session';
import { ProjectionsFeed } from './projections-feed.js';
import { followedBy, framesOf, openFollower } from '../testing/follow-kit.js';

describe('ProjectionsFeed', () => {
  it('sends a changed value to every follower of its session, serialized once', () => {
    const a = openFollower('a');
    const b = openFollower('b');
    const other = openFollower('o', SessionId('s2'));
    const feed = new ProjectionsFeed(
      followedBy({
        s1: { followers: new Set([a.queue, b.queue]), session: undefined },
        s2: { followers: new Set([other.queue]), session: undefined },
      }),
    );
    const value = { title: 'hi' };
    const stringify = vi.spyOn(JSON, 'stringify');
    feed.changed(SessionId('s1'), 'title', value, 4);
    const calls = stringify.mock.calls.filter(([arg]) => arg === value).length;
    stringify.mockRestore();
    expect(calls).toBe(1);
    feed.changed(SessionId('s1'), 'gone', undefined, 5);
    feed.changed(SessionId('nobody'), 'title', 1, 1);
    for (const [out, followId] of [
      [a.out, 'a'],
      [b.out, 'b'],
    ] as const)
      expect(framesOf(out)).toEqual([
        {
          jsonrpc: '2.0',
          method: 'follow.projection',
          params: { followId, generation: 1, key: 'title', value, seq: 4 },
        },
        {
          jsonrpc: '2.0',
          method: 'follow.projection',
          params: { followId, generation: 1, key: 'gone', value: null, seq: 5 },
        },
      ]);
    expect(other.out.sent).toEqual([]);
  });
});
