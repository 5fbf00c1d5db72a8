import { describe, expect, it } from 'vitest';
import { testHeader } from '@strand/test-support';
import { SessionId, type SessionHeader } from '@strand/session';
import { SubagentsFeed } from './subagents-feed.js';
import { followedBy, framesOf, openFollower } from '../testing/follow-kit.js';

describe('SubagentsFeed', () => {
  it('tells the followers of each live ancestor of a subagent child, and nobody else', () => {
    const root = openFollower('r', SessionId('root'));
    const mid = openFollower('m', SessionId('mid'));
    const bystander = openFollower('b', SessionId('other'));
    const headers: Record<string, SessionHeader> = {
      mid: testHeader('mid', { origin: 'subagent', parentSession: SessionId('root') }),
    };
    const feed = new SubagentsFeed(
      followedBy({
        root: { followers: new Set([root.queue]), session: undefined },
        mid: { followers: new Set([mid.queue]), session: undefined },
        other: { followers: new Set([bystander.queue]), session: undefined },
      }),
      (id) => headers[id],
    );
    feed.changed(testHeader('leaf', { origin: 'subagent', parentSession: SessionId('mid') }));
    feed.changed(testHeader('plain'));
    expect(framesOf(mid.out)).toEqual([
      { jsonrpc: '2.0', method: 'follow.subagents', params: { followId: 'm', generation: 1 } },
    ]);
    expect(framesOf(root.out)).toEqual([
      { jsonrpc: '2.0', method: 'follow.subagents', params: { followId: 'r', generation: 1 } },
    ]);
    expect(bystander.out.sent).toEqual([]);
  });
});
