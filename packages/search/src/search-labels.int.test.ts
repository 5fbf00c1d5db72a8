import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isRecord, Session, SessionSeq, type SessionEventInput } from '@strand/session';
import type { LabelExtractor } from './default-extractor.js';
import { SessionSearchIndex } from './session-search-index.js';
import { HIGHLIGHT_END, HIGHLIGHT_START } from './snippet.js';
import {
  openTestCorpus,
  persistedSession,
  searchTestHeader,
  user,
  type TestCorpus,
} from './testing/corpus.js';
import type { SearchPage } from './types.js';

/** The tests' labeler: a `label` event sets the label (a string) or clears it (anything else). */
const labeler: LabelExtractor = (event) => {
  if (event.type !== 'test/label') return undefined;
  return isRecord(event.data) && typeof event.data.label === 'string' ? event.data.label : null;
};
const label = (text: unknown): SessionEventInput => ({ type: 'test/label', data: { label: text } });
const ids = (page: SearchPage): string[] => page.results.map((r) => r.sessionId);

describe('session labels (SQLite): searchable, ranked first, durable', () => {
  let corpus: TestCorpus;
  let index: SessionSearchIndex;

  beforeEach(async () => {
    corpus = await openTestCorpus();
    index = SessionSearchIndex.open({ path: ':memory:', labeler });
  });
  afterEach(async () => {
    index.close();
    await corpus.dispose();
  });

  it('finds a session by its label, ahead of sessions that match more often in their events', async () => {
    // Created first (smallest key), so recency would rank it last.
    await persistedSession(corpus.persistence, 'titled', [
      user('unrelated words'),
      label('Refactor the parser'),
    ]);
    await persistedSession(corpus.persistence, 'busy', [
      user('refactor one'),
      user('refactor refactor two'),
      user('refactor three'),
    ]);
    await index.sync(corpus.sources);
    const page = await index.search('refactor');
    expect(ids(page)).toEqual(['titled', 'busy']);
    expect(page.results.map((r) => r.label)).toEqual(['Refactor the parser', null]);
    const [hit] = page.results[0]!.hits;
    expect(hit).toEqual({ seq: 1, snippet: `${HIGHLIGHT_START}Refactor${HIGHLIGHT_END} the parser` });
    // A label is not message text: the plain index (no labeler) does not find it.
    const plain = SessionSearchIndex.open({ path: ':memory:' });
    await plain.sync(corpus.sources);
    expect(ids(await plain.search('parser'))).toEqual([]);
    plain.close();
  });

  it('shows the label hit and then the best event hits of a label match', async () => {
    await persistedSession(corpus.persistence, 's', [label('walrus notes'), user('a walrus'), user('no')]);
    await index.sync(corpus.sources);
    expect((await index.search('walrus')).results[0]!.hits.map((h) => h.seq)).toEqual([0, 1]);
    // Phrases apply to labels too; every term must match the label for a label match.
    expect(ids(await index.search('"walrus notes"'))).toEqual(['s']);
    expect(ids(await index.search('"notes walrus"'))).toEqual([]);
  });

  it('matches only the current label: renamed or cleared, the old label finds nothing', async () => {
    await persistedSession(corpus.persistence, 'renamed', [label('old heron'), label('new egret')]);
    await persistedSession(corpus.persistence, 'cleared', [label('old heron'), label(42)]);
    await index.sync(corpus.sources);
    expect(ids(await index.search('heron'))).toEqual([]);
    expect(ids(await index.search('egret'))).toEqual(['renamed']);
    await persistedSession(corpus.persistence, 'later', [user('heron in a message')]);
    await index.sync(corpus.sources);
    // Each result carries the session's current label, whatever matched.
    const page = await index.search('heron');
    expect(page.results.map((r) => [r.sessionId, r.label])).toEqual([['later', null]]);
    await persistedSession(corpus.persistence, 'named', [label('the heron log'), user('heron')]);
    await index.sync(corpus.sources);
    expect((await index.search('heron')).results.map((r) => r.label)).toEqual(['the heron log', null]);
  });

  it('drops a label memory held but the log never received', async () => {
    const header = searchTestHeader('torn');
    const { incarnation } = await corpus.persistence.create({ header });
    const session = new Session({
      header,
      incarnation,
      writer: { write: (events) => corpus.persistence.append(header.id, events).then(() => undefined) },
    });
    await session.append(label('durable kestrel'));
    const ahead = new Session({
      header,
      incarnation,
      events: [
        ...session.events,
        { ...session.events[0]!, seq: SessionSeq(1), data: { label: 'volatile osprey' } },
      ],
    });
    corpus.store.attach(ahead);
    index.indexLive(ahead);
    expect(ids(await index.search('osprey'))).toEqual(['torn']);
    expect(ids(await index.search('kestrel'))).toEqual([]);
    corpus.store.detach(ahead);
    await index.sync(corpus.sources);
    expect(ids(await index.search('osprey'))).toEqual([]);
    expect(ids(await index.search('kestrel'))).toEqual(['torn']);
  });

  it('pages label matches and event matches without repeating or skipping a session', async () => {
    const expected = new Set<string>();
    for (let i = 0; i < 7; i++) {
      const inputs = i % 2 === 0 ? [label(`puffin ${i}`), user('puffin too')] : [user(`puffin ${i}`)];
      await persistedSession(corpus.persistence, `p${i}`, inputs);
      expected.add(`p${i}`);
    }
    await index.sync(corpus.sources);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page: SearchPage = await index.search('puffin', {
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

  it('starts a schema-1 index file over, so labels cover everything it indexed', async () => {
    const dir = corpus.root;
    const file = `${dir}/old.db`;
    await persistedSession(corpus.persistence, 'old', [label('gannet')]);
    const first = SessionSearchIndex.open({ path: file, labeler });
    await first.sync(corpus.sources);
    const generation = first.generation;
    first.close();
    const raw = new Database(file);
    raw.exec('DELETE FROM search_labels');
    raw.pragma('user_version = 1');
    raw.close();
    const reopened = SessionSearchIndex.open({ path: file, labeler });
    expect(reopened.generation).toBe(generation + 1);
    await reopened.sync(corpus.sources);
    expect(ids(await reopened.search('gannet'))).toEqual(['old']);
    reopened.close();
  });

  it('the label is the last label event of each session, over any interleaving (property)', async () => {
    // Words w0…w5 as labels; sessions are live (indexed from memory), so each run is cheap.
    // The seed is the run's (vitest.config.ts: printed, replayed from STRAND_TEST_SEED).
    const step = fc.record({
      session: fc.nat({ max: 2 }),
      label: fc.option(fc.nat({ max: 5 }), { nil: null }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 12 }), async (steps) => {
        const runIndex = SessionSearchIndex.open({ path: ':memory:', labeler });
        try {
          const sessions = [0, 1, 2].map((n) => new Session({ header: searchTestHeader(`s${n}`) }));
          const expected = new Map<string, string | null>();
          for (const { session, label: word } of steps) {
            await sessions[session]!.append(label(word === null ? null : `w${word}`));
            expected.set(`s${session}`, word === null ? null : `w${word}`);
          }
          for (const session of sessions) runIndex.indexLive(session);
          for (let w = 0; w <= 5; w++) {
            const want = [...expected].filter(([, current]) => current === `w${w}`).map(([id]) => id);
            const page = await runIndex.search(`w${w}`);
            expect(ids(page).sort()).toEqual(want.sort());
            for (const result of page.results) expect(result.label).toBe(`w${w}`);
          }
        } finally {
          runIndex.close();
        }
      }),
      { numRuns: 40 },
    );
  });
});
