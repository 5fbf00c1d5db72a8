import { describe, expect, it } from 'vitest';
import { isRecord, Session, SessionSeq, type SessionEventInput } from '@strand/session';
import type { LabelExtractor } from '../default-extractor.js';
import { HIGHLIGHT_END, HIGHLIGHT_START } from '../snippet.js';
import type { SearchPage } from '../types.js';
import { persistedSession, searchTestHeader, user } from './corpus.js';
import { withTestIndex, type OpenSearchIndex } from './harness.js';

/** The suites' labeler: a `test/label` event sets the label (a string) or clears it (anything else). */
export const testLabeler: LabelExtractor = (event) => {
  if (event.type !== 'test/label') return undefined;
  return isRecord(event.data) && typeof event.data.label === 'string' ? event.data.label : null;
};

/** An event `testLabeler` reads: sets the label to `text` when it is a string, else clears it. */
export const labelEvent = (text: unknown): SessionEventInput => ({
  type: 'test/label',
  data: { label: text },
});

const ids = (page: SearchPage): string[] => page.results.map((r) => r.sessionId);

/**
 * Session labels — the same on every engine (README "Labels", "Ranking"): a session whose current
 * label matches ranks above every session matched by its events only, its first hit is the label's
 * event; only the current label counts; a label obeys the durable cut; label matches and event
 * matches page without repeating or skipping a session; each result carries the current label.
 */
export function searchLabelSuite(engine: string, openIndex: OpenSearchIndex): void {
  describe(`search index (${engine}): session labels`, () => {
    const fixture = withTestIndex(openIndex, { labeler: testLabeler });

    it('finds a session by its label, ahead of sessions that match more often in their events', async () => {
      // Created first (smallest key), so recency would rank it last.
      await persistedSession(fixture.corpus.persistence, 'titled', [
        user('unrelated words'),
        labelEvent('Refactor the parser'),
      ]);
      await persistedSession(fixture.corpus.persistence, 'busy', [
        user('refactor one'),
        user('refactor refactor two'),
        user('refactor three'),
      ]);
      await fixture.index.sync(fixture.corpus.sources);
      const page = await fixture.index.search('refactor');
      expect(ids(page)).toEqual(['titled', 'busy']);
      expect(page.results.map((r) => r.label)).toEqual(['Refactor the parser', null]);
      const [hit] = page.results[0]!.hits;
      expect(hit).toEqual({ seq: 1, snippet: `${HIGHLIGHT_START}Refactor${HIGHLIGHT_END} the parser` });
      // A label is not message text: an index without a labeler does not find it.
      const plain = (await fixture.open()).index;
      await plain.sync(fixture.corpus.sources);
      expect(ids(await plain.search('parser'))).toEqual([]);
    });

    it('shows the label hit and then the best event hits of a label match', async () => {
      await persistedSession(fixture.corpus.persistence, 's', [
        labelEvent('walrus notes'),
        user('a walrus'),
        user('no'),
      ]);
      await fixture.index.sync(fixture.corpus.sources);
      expect((await fixture.index.search('walrus')).results[0]!.hits.map((h) => h.seq)).toEqual([0, 1]);
      // Phrases apply to labels too; every term must match the label for a label match.
      expect(ids(await fixture.index.search('"walrus notes"'))).toEqual(['s']);
      expect(ids(await fixture.index.search('"notes walrus"'))).toEqual([]);
    });

    it('matches only the current label: renamed or cleared, the old label finds nothing', async () => {
      await persistedSession(fixture.corpus.persistence, 'renamed', [
        labelEvent('old heron'),
        labelEvent('new egret'),
      ]);
      await persistedSession(fixture.corpus.persistence, 'cleared', [
        labelEvent('old heron'),
        labelEvent(42),
      ]);
      await fixture.index.sync(fixture.corpus.sources);
      expect(ids(await fixture.index.search('heron'))).toEqual([]);
      expect(ids(await fixture.index.search('egret'))).toEqual(['renamed']);
      await persistedSession(fixture.corpus.persistence, 'later', [user('heron in a message')]);
      await fixture.index.sync(fixture.corpus.sources);
      // Each result carries the session's current label, whatever matched.
      const page = await fixture.index.search('heron');
      expect(page.results.map((r) => [r.sessionId, r.label])).toEqual([['later', null]]);
      await persistedSession(fixture.corpus.persistence, 'named', [
        labelEvent('the heron log'),
        user('heron'),
      ]);
      await fixture.index.sync(fixture.corpus.sources);
      expect((await fixture.index.search('heron')).results.map((r) => r.label)).toEqual([
        'the heron log',
        null,
      ]);
    });

    it('drops a label memory held but the log never received', async () => {
      const header = searchTestHeader('torn');
      const { incarnation } = await fixture.corpus.persistence.create({ header });
      const session = new Session({
        header,
        incarnation,
        writer: {
          write: (events) => fixture.corpus.persistence.append(header.id, events).then(() => undefined),
        },
      });
      await session.append(labelEvent('durable kestrel'));
      const ahead = new Session({
        header,
        incarnation,
        events: [
          ...session.events,
          { ...session.events[0]!, seq: SessionSeq(1), data: { label: 'volatile osprey' } },
        ],
      });
      fixture.corpus.store.attach(ahead);
      await fixture.index.indexLive(ahead);
      expect(ids(await fixture.index.search('osprey'))).toEqual(['torn']);
      expect(ids(await fixture.index.search('kestrel'))).toEqual([]);
      fixture.corpus.store.detach(ahead);
      await fixture.index.sync(fixture.corpus.sources);
      expect(ids(await fixture.index.search('osprey'))).toEqual([]);
      expect(ids(await fixture.index.search('kestrel'))).toEqual(['torn']);
    });

    it('pages label matches and event matches without repeating or skipping a session', async () => {
      const expected = new Set<string>();
      for (let i = 0; i < 7; i++) {
        const inputs = i % 2 === 0 ? [labelEvent(`puffin ${i}`), user('puffin too')] : [user(`puffin ${i}`)];
        await persistedSession(fixture.corpus.persistence, `p${i}`, inputs);
        expected.add(`p${i}`);
      }
      await fixture.index.sync(fixture.corpus.sources);
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page: SearchPage = await fixture.index.search('puffin', {
          limit: 2,
          ...(cursor === undefined ? {} : { cursor }),
        });
        seen.push(...ids(page));
        cursor = page.nextCursor ?? undefined;
      } while (cursor !== undefined);
      expect(seen).toHaveLength(expected.size);
      expect(new Set(seen)).toEqual(expected);
      // The labelled sessions (even i) come first.
      expect(seen.slice(0, 4).sort()).toEqual(['p0', 'p2', 'p4', 'p6']);
    });
  });
}
