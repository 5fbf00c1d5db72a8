import fc from 'fast-check';
import type { HourUsage } from '@strand/projection';
import { SessionId, SessionLogOffset } from '@strand/session';
import { describe, expect, it } from 'vitest';
import type { ListIndexStore } from '../list-index/list-index-store.js';
import {
  listColumnsOf,
  type ListIndexRow,
  type UsageIndexQuery,
  type UsageIndexSession,
} from '../list-index/list-row.js';
import { event, header, listHeader, subject, turnEvents } from './fixtures.js';
import type { WithCache } from './harness.js';

const cut0 = SessionLogOffset(0);
const HOUR = 3_600_000;

/** A turn with one priced response (events at 1,000 ms + seq: one UTC hour, one model). */
const usageEvents = [
  ...turnEvents,
  event(4, 'request/header', { provider: 'anthropic', model: 'claude-x' }),
  event(5, 'assistant/message', { content: 'a', usage: { input: 10, output: 2, cacheRead: 5 } }),
];

function indexOf(t: { cache: { listIndex: ListIndexStore | undefined } }): ListIndexStore {
  const index = t.cache.listIndex;
  if (index === undefined) throw new Error('this cache keeps no list index');
  return index;
}

/** Hours in one order (an engine may return a session's entries of one hour in any order). */
const ordered = (hours: readonly HourUsage[]): HourUsage[] =>
  hours
    .map(
      (entry) =>
        [JSON.stringify([entry.hour, entry.provider, entry.model, entry.longContext, entry]), entry] as const,
    )
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, entry]) => entry);

const normalized = (sessions: readonly UsageIndexSession[]): UsageIndexSession[] =>
  [...sessions]
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((s) => ({ ...s, byHour: ordered(s.byHour) }));

/**
 * The usage hours every list index keeps beside its rows (packages/projection-cache/README.md,
 * "Usage beside the list"): written with the list row, never moved back, unknown again with the
 * hints, gone with the row, and a query equal to a brute-force filter over the written hours.
 */
export function usageBehaviour(withCache: WithCache): void {
  describe('usage hours', () => {
    it('put writes the usage view hours beside the list row; they survive a restart', () =>
      withCache(async (t) => {
        const folded = t.registry.foldAll(header(), usageEvents);
        t.cache.put(subject(), cut0, folded.rows);
        await t.settle();
        const view = folded.snapshot.values.usage;
        expect(view?.byHour.length).toBe(1);
        const expected = [
          {
            id: 's1',
            incarnation: 'inc-1',
            title: 'Hello',
            cwd: null,
            harness: 'strand',
            byHour: view?.byHour,
          },
        ];
        expect(await indexOf(t).usage({})).toEqual(expected);
        await t.reopen();
        expect(await indexOf(t).usage({})).toEqual(expected);
      }));

    it('older hours never replace newer ones; another incarnation, a forget or a drop makes them unknown', () =>
      withCache(async (t) => {
        t.cache.put(subject(), cut0, t.registry.foldAll(header(), usageEvents).rows);
        t.cache.put(subject(), cut0, t.registry.foldAll(header(), turnEvents).rows);
        await t.settle();
        expect((await indexOf(t).usage({}))[0]?.byHour).toHaveLength(1);
        expect(
          (await indexOf(t).identities({ after: '', limit: 10 })).find((row) => row.sessionId === 's1')
            ?.usageKnown,
        ).toBe(true);
        t.cache.noteSession(subject('s1', 'inc-2'));
        await t.settle();
        expect(await indexOf(t).usage({})).toEqual([]);
        // Reconcile at open folds a row whose usage is unknown, as one whose hints are.
        expect(
          (await indexOf(t).identities({ after: '', limit: 10 })).find((row) => row.sessionId === 's1')
            ?.usageKnown,
        ).toBe(false);
        t.cache.put(subject('s1', 'inc-2'), cut0, t.registry.foldAll(header(), turnEvents).rows);
        await t.settle();
        expect(await indexOf(t).usage({})).toMatchObject([{ id: 's1', incarnation: 'inc-2', byHour: [] }]);
        t.cache.forget(SessionId('s1'));
        await t.settle();
        expect(await indexOf(t).usage({})).toEqual([]);
        t.cache.noteSession(subject('s1', 'inc-2'), undefined, { asOfSeq: 0, byHour: null });
        await t.settle();
        expect(await indexOf(t).usage({})).toMatchObject([{ id: 's1', byHour: [] }]);
        t.cache.dropSession(SessionId('s1'));
        await t.settle();
        expect(await indexOf(t).usage({})).toEqual([]);
      }));

    it('a usage query yields the brute-force filtered sessions and hours', () =>
      withCache((t) =>
        fc.assert(
          fc.asyncProperty(
            fc.uniqueArray(fc.constantFrom(...IDS)).chain((ids) => fc.tuple(...ids.map(rowArb))),
            queryArb,
            async (rows, query) => {
              const index = indexOf(t);
              index.clear();
              for (const row of rows) index.upsert(row);
              await t.settle();
              expect(normalized(await index.usage(query))).toEqual(normalized(brute(rows, query)));
            },
          ),
          { numRuns: 40 },
        ),
      ));
  });
}

const IDS = ['a', 'b', 'c', 'ab', 'é'] as const;
const CWDS = ['/p', '/q'] as const;
const HARNESSES = ['strand', 'codex'] as const;

const hourArb: fc.Arbitrary<HourUsage> = fc
  .record({
    hour: fc
      .integer({ min: 0, max: 30 })
      .map((h) => 1_700_000_000_000 - (1_700_000_000_000 % HOUR) + h * HOUR),
    provider: fc.option(fc.constantFrom('anthropic', 'openai'), { nil: null }),
    model: fc.option(fc.constantFrom('m1', 'm2', 'm3'), { nil: null }),
    longContext: fc.boolean(),
    input: fc.nat(1_000_000),
    output: fc.nat(1_000_000),
    cacheCreation: fc.nat(1_000_000),
    cacheRead: fc.nat(1_000_000),
    reasoning: fc.nat(1_000),
    reportedUsd: fc.option(fc.double({ min: 0, max: 100, noNaN: true }), { nil: undefined }),
  })
  .map(({ reportedUsd, ...entry }) => (reportedUsd === undefined ? entry : { ...entry, reportedUsd }));

const rowArb = (id: string): fc.Arbitrary<ListIndexRow> =>
  fc
    .record({
      cwd: fc.option(fc.constantFrom(...CWDS), { nil: undefined }),
      harness: fc.constantFrom(...HARNESSES),
      title: fc.option(fc.constantFrom('alpha', 'b'), { nil: undefined }),
      // undefined: usage unknown; null: a fold that could not read a record.
      byHour: fc.option(fc.option(fc.array(hourArb, { maxLength: 6 }), { nil: null }), { nil: undefined }),
    })
    .map((r) => ({
      header: listHeader(id, { createdAt: 0, cwd: r.cwd, harness: r.harness, subagent: false }),
      incarnation: 'inc-1',
      ...(r.title === undefined ? {} : { hints: { asOfSeq: 2, values: { title: r.title } } }),
      ...(r.byHour === undefined ? {} : { usage: { asOfSeq: 2, byHour: r.byHour } }),
    }));

const sometimes = <T>(value: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> =>
  fc.oneof({ arbitrary: fc.constant(undefined), weight: 2 }, { arbitrary: value, weight: 1 });

const instant = fc
  .integer({ min: -2, max: 32 })
  .map((h) => 1_700_000_000_000 - (1_700_000_000_000 % HOUR) + h * HOUR + 1);

const queryArb: fc.Arbitrary<UsageIndexQuery> = fc
  .record({
    cwd: sometimes(fc.constantFrom(...CWDS)),
    harness: sometimes(fc.constantFrom(...HARNESSES)),
    ids: sometimes(fc.uniqueArray(fc.constantFrom(...IDS, 'zz'), { maxLength: 3 })),
    since: sometimes(instant),
    until: sometimes(instant),
  })
  .map((query) => Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined)));

/** The reference: the written rows filtered here without the store's query. */
function brute(rows: readonly ListIndexRow[], query: UsageIndexQuery): UsageIndexSession[] {
  return rows.flatMap((row) => {
    const c = listColumnsOf(row);
    if (row.usage === undefined) return [];
    if (query.cwd !== undefined && c.cwd !== query.cwd) return [];
    if (query.harness !== undefined && c.harness !== query.harness) return [];
    if (query.ids !== undefined && !query.ids.includes(c.id)) return [];
    const byHour = (row.usage.byHour ?? []).filter(
      (e) =>
        (query.since === undefined || e.hour >= query.since) &&
        (query.until === undefined || e.hour < query.until),
    );
    return [
      { id: c.id, incarnation: row.incarnation, title: c.title, cwd: c.cwd, harness: c.harness, byHour },
    ];
  });
}
