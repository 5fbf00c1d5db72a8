import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Session, SessionLogOffset, type SessionEvent } from '@strand/session';
import { isSearchIndexError, type SearchPage } from '@strand/search';
import { facetHeader, labelEvent, testFacets, testLabeler, user } from '@strand/search/testing';
import { createTestDatabase, noPostgres, sqlOnce, type TestDatabase } from '../testing/index.js';
import { openPostgresSearchIndex, type PostgresSearchIndex } from './postgres-search-index.js';

const WORDS = ['gannet', 'puffin', 'heron', 'tern', 'osprey', 'plover'] as const;
const CWDS = ['/p/one', '/p/two'] as const;

/** A session as the property draws it: its messages, an optional label, what the index held before. */
interface Drawn {
  readonly messages: readonly (readonly string[])[];
  readonly label: string | undefined;
  readonly cwd: (typeof CWDS)[number];
  /** Continues session `n` of the run (after its first message): a continued export, imported back. */
  readonly continues: number | undefined;
  /** Indexed before the group: under the same incarnation (a prefix, or a longer log) or another. */
  readonly prior: { readonly incarnation: 'a' | 'b'; readonly messages: number } | undefined;
}

const drawnSession: fc.Arbitrary<Drawn> = fc.record({
  messages: fc.array(fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }), {
    minLength: 0,
    maxLength: 4,
  }),
  label: fc.option(fc.constantFrom(...WORDS), { nil: undefined }),
  cwd: fc.constantFrom(...CWDS),
  continues: fc.option(fc.integer({ min: 0, max: 6 }), { nil: undefined }),
  prior: fc.option(
    fc.record({
      incarnation: fc.constantFrom('a' as const, 'b' as const),
      messages: fc.integer({ min: 0, max: 5 }),
    }),
    { nil: undefined },
  ),
});

/**
 * Session `i` of a run under `incarnation`, with the first `count` of its messages and its label
 * (first, or last: a prior's label then sits where the group's log may not reach).
 */
async function sessionOf(
  run: number,
  i: number,
  drawn: Drawn,
  incarnation: string,
  count: number,
  cwd: string,
  labelLast = false,
) {
  const header = facetHeader(`r${run}-s${i}`, cwd);
  const session = new Session({ header, incarnation });
  const label = drawn.label === undefined ? [] : [labelEvent(drawn.label)];
  const messages = drawn.messages
    .concat([['extra', 'words'], ['more']])
    .slice(0, count)
    .map((m) => user(m.join(' ')));
  if (drawn.continues !== undefined && messages.length > 0)
    messages.splice(1, 0, {
      type: 'session/continued-from',
      data: { session: `r${run}-s${drawn.continues}`, cut: 1, harness: 'codex' },
    });
  const inputs = [...(labelLast ? [] : label), ...messages, ...(labelLast ? label : [])];
  if (inputs.length > 0) await session.append(inputs);
  return session;
}

/** Everything the index holds, keyed by session id (sids differ between databases). */
async function contents(url: string) {
  const rows = await sqlOnce(
    url,
    `SELECT session_id, incarnation, revision, cut, durable_cut, own_from, cwd, harness FROM search_sessions ORDER BY session_id`,
  );
  const text = async (table: string): Promise<unknown[]> =>
    (
      await sqlOnce(
        url,
        `SELECT s.session_id, t.seq, t.text, t.tsv::text AS tsv FROM ${table} t JOIN search_sessions s USING (sid)
         ORDER BY s.session_id, t.seq`,
      )
    ).rows as unknown[];
  const [events, labels] = await Promise.all([text('search_events'), text('search_labels')]);
  return { sessions: rows.rows, events, labels };
}

const answers = (page: SearchPage) => page.results;

describe.skipIf(noPostgres)('PostgresSearchIndex.indexLiveMany', () => {
  let one: TestDatabase;
  let many: TestDatabase;
  let byOne: PostgresSearchIndex;
  let byMany: PostgresSearchIndex;
  const tuning = { labeler: testLabeler, facets: testFacets, maxConnections: 2 };

  beforeAll(async () => {
    [one, many] = await Promise.all([createTestDatabase('strand_group'), createTestDatabase('strand_group')]);
    [byOne, byMany] = await Promise.all([
      openPostgresSearchIndex({ url: one.url, ...tuning }),
      openPostgresSearchIndex({ url: many.url, ...tuning }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([byOne?.close(), byMany?.close()]);
    await Promise.all([one?.drop(), many?.drop()]);
  });

  it('indexes a group exactly as indexLive for each in order: same rows, bookkeeping and answers', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(drawnSession, { minLength: 1, maxLength: 6 }),
        fc.array(
          fc.record({
            of: fc.nat(),
            incarnation: fc.constantFrom('a', 'c'),
            messages: fc.integer({ min: 0, max: 5 }),
          }),
          { maxLength: 2 },
        ),
        async (drawn, repeats) => {
          run++;
          for (const url of [one.url, many.url])
            await sqlOnce(
              url,
              'TRUNCATE search_sessions, search_events, search_labels, search_snapshots CASCADE',
            );
          // What the index held before: the same in both databases, written one by one.
          for (const [i, d] of drawn.entries()) {
            if (d.prior === undefined) continue;
            const otherCwd = d.prior.incarnation === 'b' ? CWDS[(CWDS.indexOf(d.cwd) + 1) % 2]! : d.cwd;
            // Not continued yet: the group's continuation then takes text rows written before it.
            const prior = await sessionOf(
              run,
              i,
              { ...d, continues: undefined },
              d.prior.incarnation,
              d.prior.messages + 1,
              otherCwd,
              true,
            );
            await Promise.all([byOne.indexLive(prior), byMany.indexLive(prior)]);
          }
          const sessions = await Promise.all(
            drawn.map((d, i) => sessionOf(run, i, d, 'a', d.messages.length, d.cwd)),
          );
          // A session may be listed again, as the same incarnation (a shorter or longer log) or
          // another: indexed again, as a second indexLive would (re-binding what the group wrote).
          const again = await Promise.all(
            repeats.map(({ of, incarnation, messages }) => {
              const i = of % drawn.length;
              return sessionOf(run, i, drawn[i]!, incarnation, messages, drawn[i]!.cwd);
            }),
          );
          const group = [...sessions, ...again];
          const single = { events: 0, rows: 0 };
          for (const session of group) {
            const report = await byOne.indexLive(session);
            single.events += report.events;
            single.rows += report.rows;
          }
          expect(await byMany.indexLiveMany(group)).toEqual(single);
          const [oneHolds, manyHolds] = await Promise.all([contents(one.url), contents(many.url)]);
          expect(manyHolds).toEqual(oneHolds);
          const queries = WORDS.flatMap(
            (word) =>
              [
                [word, {}],
                [word, { cwd: CWDS[0] }],
              ] as const,
          );
          const [expected, actual] = await Promise.all(
            [byOne, byMany].map((index) =>
              Promise.all(queries.map(async ([word, options]) => answers(await index.search(word, options)))),
            ),
          );
          expect(actual).toEqual(expected);
        },
      ),
      {
        numRuns: 6,
        seed: 41_2026,
        endOnFailure: true,
        // Pinned: a session continuing one the group creates after it (not known yet when it is indexed).
        examples: [
          [
            [
              {
                messages: [['gannet'], ['heron']],
                label: undefined,
                cwd: CWDS[0],
                prior: undefined,
                continues: 1,
              },
              {
                messages: [['tern']],
                label: undefined,
                cwd: CWDS[0],
                prior: undefined,
                continues: undefined,
              },
            ],
            [],
          ],
        ],
      },
    );
  });

  it('is one transaction: a session that fails mid-group leaves none of the group indexed', async () => {
    await sqlOnce(
      many.url,
      'TRUNCATE search_sessions, search_events, search_labels, search_snapshots CASCADE',
    );
    const good = await sessionOf(
      0,
      0,
      { messages: [['gannet']], label: undefined, cwd: '/p/one', prior: undefined, continues: undefined },
      'a',
      1,
      '/p/one',
    );
    const header = facetHeader('failing');
    // Fault injected: its memory cannot be read, after `good` was planned.
    const failing = {
      id: header.id,
      incarnation: 'a',
      header,
      inheritedEventCount: SessionLogOffset(0),
      get events(): readonly SessionEvent[] {
        throw new Error('memory unreadable');
      },
    };
    await expect(byMany.indexLiveMany([good, failing])).rejects.toThrow(/memory unreadable/);
    expect((await contents(many.url)).sessions).toEqual([]);
    // The index goes on: the good session alone goes in.
    await byMany.indexLiveMany([good]);
    expect((await byMany.search('gannet')).results.map((r) => r.sessionId)).toEqual([good.id]);
  });

  it('rolls back a group the database refuses mid-write, deletions and bookkeeping included', async () => {
    await sqlOnce(
      many.url,
      'TRUNCATE search_sessions, search_events, search_labels, search_snapshots CASCADE',
    );
    const drawn = (word: string): Drawn => ({
      messages: [[word]],
      label: undefined,
      cwd: '/p/one',
      prior: undefined,
      continues: undefined,
    });
    // Indexed before under another incarnation: the group re-binds it (deleting its rows) before it fails.
    const old = await sessionOf(1, 0, drawn('gannet'), 'b', 1, '/p/two');
    await byMany.indexLive(old);
    const before = await contents(many.url);
    // Fault injected in the server: the text INSERT of the group fails on a poisoned row.
    await sqlOnce(
      many.url,
      `CREATE FUNCTION refuse_poison() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN IF NEW.text LIKE '%poison%' THEN RAISE EXCEPTION 'poisoned row'; END IF; RETURN NEW; END $$;
       CREATE TRIGGER refuse_poison BEFORE INSERT ON search_events FOR EACH ROW EXECUTE FUNCTION refuse_poison()`,
    );
    try {
      const rebound = await sessionOf(1, 0, drawn('puffin'), 'a', 1, '/p/one');
      const fresh = await sessionOf(1, 1, drawn('heron'), 'a', 1, '/p/one');
      const poisoned = await sessionOf(1, 2, drawn('poison'), 'a', 1, '/p/one');
      const failure = await byMany.indexLiveMany([rebound, fresh, poisoned]).catch((error: unknown) => error);
      expect(isSearchIndexError(failure) && failure.code).toBe('SEARCH_INDEX_FAILED');
      expect(await contents(many.url)).toEqual(before);
      expect((await byMany.search('gannet')).results.map((r) => r.sessionId)).toEqual([old.id]);
    } finally {
      await sqlOnce(many.url, 'DROP TRIGGER refuse_poison ON search_events; DROP FUNCTION refuse_poison()');
    }
  });

  it('is queued with indexLive: a search right after the call sees the group', async () => {
    await sqlOnce(
      many.url,
      'TRUNCATE search_sessions, search_events, search_labels, search_snapshots CASCADE',
    );
    const drawn: Drawn = {
      messages: [['osprey'], ['plover']],
      label: undefined,
      cwd: '/p/one',
      prior: undefined,
      continues: undefined,
    };
    const session = await sessionOf(2, 0, drawn, 'a', 2, '/p/one');
    const first = byMany.indexLive(session, session.events.slice(0, 1));
    const group = byMany.indexLiveMany([session]);
    const found = await byMany.search('plover');
    expect(found.results.map((r) => r.sessionId)).toEqual([session.id]);
    expect(await first).toEqual({ events: 1, rows: 1 });
    expect(await group).toEqual({ events: 1, rows: 1 });
  });
});
