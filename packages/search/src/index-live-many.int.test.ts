import { describe, expect, it } from 'vitest';
import { Session, type SessionEvent } from '@strand/session';
import { SessionSearchIndex } from './session-search-index.js';
import { searchTestHeader } from './testing/corpus.js';
import type { SearchPage } from './types.js';

const ids = (page: SearchPage): string[] => page.results.map((r) => r.sessionId).sort();

async function sessionSaying(id: string, ...words: string[]): Promise<Session> {
  const session = new Session({ header: searchTestHeader(id) });
  for (const word of words)
    await session.append([
      { type: 'user/message', data: { author: 'human', content: `say ${word}` }, time: 1_000 },
    ]);
  return session;
}

describe('SessionSearchIndex.indexLiveMany', () => {
  it('indexes every session as indexLive one at a time does, and reports their sum', async () => {
    const sessions = [
      await sessionSaying('a', 'gannet', 'puffin'),
      await sessionSaying('b', 'puffin'),
      await sessionSaying('c', 'heron', 'gannet', 'tern'),
    ];
    const many = SessionSearchIndex.open({ path: ':memory:' });
    const one = SessionSearchIndex.open({ path: ':memory:' });
    try {
      const report = many.indexLiveMany(sessions);
      const single = sessions.map((session) => one.indexLive(session));
      expect(report).toEqual({
        events: single.reduce((sum, r) => sum + r.events, 0),
        rows: single.reduce((sum, r) => sum + r.rows, 0),
      });
      expect(report.events).toBe(6);
      for (const word of ['gannet', 'puffin', 'heron', 'tern']) {
        const found = ids(await many.search(word));
        expect(found).toEqual(ids(await one.search(word)));
        expect(found.length).toBeGreaterThan(0);
      }
    } finally {
      many.close();
      one.close();
    }
  });

  it('is one transaction: a session that fails leaves none of the call indexed', async () => {
    const index = SessionSearchIndex.open({ path: ':memory:' });
    try {
      const good = await sessionSaying('a', 'gannet');
      // A session whose memory cannot be read (fault injected): the failure comes after `good`'s rows.
      const header = searchTestHeader('b');
      const failing = {
        id: header.id,
        incarnation: 'b-1',
        header,
        inheritedEventCount: good.inheritedEventCount,
        get events(): readonly SessionEvent[] {
          throw new Error('memory unreadable');
        },
      };
      const sessions = [good, failing];
      expect(() => index.indexLiveMany(sessions)).toThrow(/memory unreadable/);
      expect(ids(await index.search('gannet'))).toEqual([]);
      // The index is still usable: the good session alone goes in.
      index.indexLiveMany(sessions.slice(0, 1));
      expect(ids(await index.search('gannet'))).toEqual(['a']);
    } finally {
      index.close();
    }
  });
});
