import { describe, expect, it } from 'vitest';
import type { Session, SessionEventInput } from '@strand/session';
import type { SearchPage } from '../types.js';
import { assistant, forkedSession, persistedSession, user } from './corpus.js';
import { allPages } from './facet-suite.js';
import { feedLive, withTestIndex, type OpenSearchIndex } from './harness.js';
import { labelEvent, testLabeler } from './label-suite.js';

const ids = (page: SearchPage): string[] => page.results.map((r) => r.sessionId);
const hitsOf = (page: SearchPage, id: string): number[] | undefined =>
  page.results.find((r) => r.sessionId === id)?.hits.map((h) => h.seq);

/**
 * Forks — the same on every engine (README "Forks"): a fork's log copies its parent's prefix, and a
 * hit there belongs to the session that first wrote the event. A search lists it once, under that
 * session; the fork is found only for its own events (its label too, when it set it itself), and
 * still shows the label it inherited. Live or cold, and a fork of a fork alike.
 */
export function searchForkSuite(engine: string, openIndex: OpenSearchIndex): void {
  describe(`search index (${engine}): forks`, () => {
    const fixture = withTestIndex(openIndex, { labeler: testLabeler });

    /** `parent` (label, two messages) and `fork`, seeded with all of it, with two own messages. */
    const parentAndFork = async (): Promise<{ parent: Session; fork: Session }> => {
      const { persistence } = fixture.corpus;
      const parent = await persistedSession(persistence, 'parent', [
        labelEvent('Refactor the persistence layer'),
        user('notes on the persistence layer'),
        assistant('a walrus answer'),
      ]);
      const fork = await forkedSession(persistence, 'fork', parent, [
        user('a heron question'),
        assistant('the walrus again'),
      ]);
      return { parent, fork };
    };

    it("lists a hit of a fork's inherited prefix once, under the parent, and the fork for its own", async () => {
      await parentAndFork();
      await fixture.index.sync(fixture.corpus.sources);
      // The label and the message are both inherited: only the parent is found, on every page.
      const inherited = await allPages(fixture.index, 'persistence layer', { limit: 1 });
      expect(inherited.flatMap(ids)).toEqual(['parent']);
      // The fork's own message finds it, and it shows the title it inherited.
      const own = await fixture.index.search('heron');
      expect(own.results.map((r) => [r.sessionId, r.label])).toEqual([
        ['fork', 'Refactor the persistence layer'],
      ]);
      expect(hitsOf(own, 'fork')).toEqual([3]);
      // A word in both: each session with its own events only.
      const both = await fixture.index.search('walrus');
      expect([...ids(both)].sort()).toEqual(['fork', 'parent']);
      expect(hitsOf(both, 'parent')).toEqual([2]);
      expect(hitsOf(both, 'fork')).toEqual([4]);
    });

    it('gives a hit in a fork of a fork to the session that first wrote the event', async () => {
      const { fork } = await parentAndFork();
      await forkedSession(fixture.corpus.persistence, 'grandchild', fork, [user('an osprey')]);
      await fixture.index.sync(fixture.corpus.sources);
      expect(ids(await fixture.index.search('persistence'))).toEqual(['parent']);
      expect(ids(await fixture.index.search('heron'))).toEqual(['fork']);
      expect([...ids(await fixture.index.search('walrus'))].sort()).toEqual(['fork', 'parent']);
      const own = await fixture.index.search('osprey');
      expect(own.results.map((r) => [r.sessionId, r.label, r.hits.map((h) => h.seq)])).toEqual([
        ['grandchild', 'Refactor the persistence layer', [5]],
      ]);
    });

    it('finds a fork by a label it set itself', async () => {
      const { fork } = await parentAndFork();
      await fork.append(labelEvent('Review the persistence refactor'));
      await fixture.index.sync(fixture.corpus.sources);
      const page = await fixture.index.search('refactor');
      expect(page.results.map((r) => [r.sessionId, r.label]).sort()).toEqual([
        ['fork', 'Review the persistence refactor'],
        ['parent', 'Refactor the persistence layer'],
      ]);
      expect(hitsOf(page, 'fork')).toEqual([5]);
    });

    it('applies the same rule to a live fork indexed from memory, and once it is cold again', async () => {
      const { parent } = await parentAndFork();
      const live = await forkedSession(fixture.corpus.persistence, 'live-fork', parent, [], {
        createdAt: parent.header.createdAt + 2,
      });
      fixture.corpus.store.attach(live);
      await fixture.index.sync(fixture.corpus.sources);
      const feed = feedLive(fixture.index, live);
      await live.append(user('a live kestrel, persistence layer'));
      await feed.stop();
      const expectOwnOnly = async (): Promise<void> => {
        expect(ids(await fixture.index.search('kestrel'))).toEqual(['live-fork']);
        // Its own message matches too, but the inherited label and message stay the parent's.
        const page = await fixture.index.search('persistence layer');
        expect([...ids(page)].sort()).toEqual(['live-fork', 'parent']);
        expect(hitsOf(page, 'live-fork')).toEqual([3]);
        expect(ids(await fixture.index.search('heron'))).toEqual(['fork']);
      };
      await expectOwnOnly();
      fixture.corpus.store.detach(live);
      await fixture.index.sync(fixture.corpus.sources);
      await expectOwnOnly();
    });

    // A Strand export a harness continued, imported back (`session/continued-from` right after the
    // exported prefix): the prefix is the origin's, listed once under it when the origin is stored.
    const continuedFrom = (origin: string): SessionEventInput => ({
      type: 'session/continued-from',
      data: { session: origin, cut: 1, harness: 'codex' },
    });
    const exported = (): SessionEventInput[] => [user('notes on the osprey'), assistant('a walrus answer')];

    it("lists a hit of a continued export's exported prefix once, under its origin, whatever the index order", async () => {
      const { persistence } = fixture.corpus;
      // Same start: the continued session ('a-…') is indexed before its origin ('z-…').
      await persistedSession(persistence, 'z-origin', exported());
      await persistedSession(persistence, 'a-continued', [
        ...exported(),
        continuedFrom('z-origin'),
        user('a heron question'),
      ]);
      // An export whose origin is not stored keeps its prefix as its own.
      await persistedSession(persistence, 'b-moved', [
        ...exported(),
        continuedFrom('elsewhere'),
        user('a tern'),
      ]);
      await fixture.index.sync(fixture.corpus.sources);
      expect([...ids(await fixture.index.search('osprey'))].sort()).toEqual(['b-moved', 'z-origin']);
      expect(hitsOf(await fixture.index.search('walrus'), 'a-continued')).toBeUndefined();
      const own = await fixture.index.search('heron');
      expect(own.results.map((r) => [r.sessionId, r.hits.map((h) => h.seq)])).toEqual([['a-continued', [3]]]);
    });

    it('gives the prefix to the origin once the continuation is appended after it was indexed', async () => {
      const { persistence } = fixture.corpus;
      await persistedSession(persistence, 'z-origin', exported());
      const continued = await persistedSession(persistence, 'a-continued', exported());
      await fixture.index.sync(fixture.corpus.sources);
      expect([...ids(await fixture.index.search('osprey'))].sort()).toEqual(['a-continued', 'z-origin']);
      await continued.append([continuedFrom('z-origin'), user('a heron question')]);
      await fixture.index.sync(fixture.corpus.sources);
      expect(ids(await fixture.index.search('osprey'))).toEqual(['z-origin']);
      expect(ids(await fixture.index.search('heron'))).toEqual(['a-continued']);
    });
  });
}
