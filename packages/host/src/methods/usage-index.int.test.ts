import fc from 'fast-check';
import type { HourUsage } from '@strand/projection';
import { persistenceWriter } from '@strand/persistence';
import { Session, SessionId, newSessionHeader, type SessionHeader } from '@strand/session';
import { openTempStack, type TempStack } from '@strand/stack/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseBound } from '../usage/periods.js';
import {
  USAGE_GROUPS,
  summarizeUsage,
  type SessionUsage,
  type UsageFigures,
  type UsageSummary,
} from '../usage/summarize.js';
import { defaultPrices, usageSummary } from './usage-summary.js';

const HOUR = 3_600_000;
const BASE = Date.parse('2026-03-28T00:00:00Z');
const IDS = ['s0', 's1', 's2', 's3', 's4', 's5'] as const;
const CWDS = ['/a', '/b'] as const;
const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Pacific/Chatham'] as const;

const hourArb: fc.Arbitrary<HourUsage> = fc
  .record({
    // Across a DST change in Europe and a few days either side.
    hour: fc.integer({ min: 0, max: 24 * 6 }).map((h) => BASE + h * HOUR),
    provider: fc.constantFrom('anthropic', 'openai'),
    model: fc.option(fc.constantFrom('claude-sonnet-4-5', 'gpt-5', 'no-such-model'), { nil: null }),
    longContext: fc.boolean(),
    input: fc.nat(100_000),
    output: fc.nat(100_000),
    cacheCreation: fc.nat(100_000),
    cacheRead: fc.nat(100_000),
    reasoning: fc.nat(1_000),
    reportedUsd: fc.option(
      fc.integer({ min: 0, max: 1_000 }).map((c) => c / 100),
      { nil: undefined },
    ),
  })
  .map(({ reportedUsd, ...entry }) => (reportedUsd === undefined ? entry : { ...entry, reportedUsd }));

const day = fc.integer({ min: 27, max: 31 }).map((d) => `2026-03-${d}`);

const cwdOf = (i: number): string => (i % 2 === 0 ? '/a' : '/b');

let stack: TempStack;
const subjects = new Map<string, { header: SessionHeader; incarnation: string }>();
beforeAll(async () => {
  stack = await openTempStack({ prefix: 'strand-usage-index' });
  for (const [i, id] of IDS.entries()) {
    const header = newSessionHeader({ id: SessionId(id), createdAt: BASE, cwd: cwdOf(i) });
    const { incarnation } = await stack.persistence.create({ header });
    // A session is listed once it holds an event.
    await new Session({
      header,
      incarnation,
      writer: persistenceWriter(stack.persistence, header.id),
    }).append([{ type: 'turn/start', data: {}, time: BASE }]);
    subjects.set(id, { header, incarnation });
  }
});
afterAll(() => stack.close());

describe('usage.summary from the list index', () => {
  it('equals the pure summary over the same sessions, with no log read (any grouping, zone, filter)', () =>
    fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(hourArb, { maxLength: 5 }), { minLength: IDS.length, maxLength: IDS.length }),
        fc.record({
          by: fc.constantFrom(...USAGE_GROUPS),
          timeZone: fc.constantFrom(...ZONES),
          cwd: fc.option(fc.constantFrom(...CWDS), { nil: undefined }),
          ids: fc.option(fc.subarray([...IDS, 'nope']), { nil: undefined }),
          since: fc.option(day, { nil: undefined }),
          until: fc.option(day, { nil: undefined }),
        }),
        async (hours, params) => {
          const sessions: SessionUsage[] = IDS.map((id, i) => ({
            id,
            title: null,
            cwd: cwdOf(i),
            harness: 'strand',
            byHour: hours[i] ?? [],
          }));
          for (const session of sessions) {
            // A later cut each run, so every run's hours replace the last run's.
            stack.cache.noteSession(subjects.get(session.id)!, undefined, {
              asOfSeq: runs,
              byHour: session.byHour,
            });
          }
          runs++;
          const { search: _search, ...services } = stack;
          const answer = await usageSummary(services, params, new AbortController().signal);
          const bound = (text: string | undefined, edge: 'since' | 'until') =>
            text === undefined ? undefined : parseBound(text, edge, params.timeZone);
          const only = params.ids === undefined ? undefined : new Set(params.ids);
          const expected = summarizeUsage(
            sessions.filter((s) => only === undefined || only.has(s.id)),
            {
              by: params.by,
              timeZone: params.timeZone,
              ...(params.cwd === undefined ? {} : { cwd: params.cwd }),
              ...(bound(params.since, 'since') === undefined ? {} : { since: bound(params.since, 'since')! }),
              ...(bound(params.until, 'until') === undefined ? {} : { until: bound(params.until, 'until')! }),
            },
            defaultPrices(),
          );
          expect(answer.bodyReads).toBe(0);
          expect(answer.totals.sessions).toBe(expected.totals.sessions);
          expect(costsRounded({ rows: answer.rows, totals: answer.totals })).toEqual(costsRounded(expected));
        },
      ),
      { numRuns: 60 },
    ));
});

describe('usage.summary of some sessions', () => {
  it('reads the asked sessions from the index, listing the corpus only for an id the index lacks', async () => {
    const hour: HourUsage = {
      hour: BASE,
      provider: 'anthropic',
      model: 'claude-sonnet-4-5',
      longContext: false,
      input: 10,
      output: 5,
      cacheCreation: 0,
      cacheRead: 0,
      reasoning: 0,
    };
    for (const id of ['s1', 's2'])
      stack.cache.noteSession(subjects.get(id)!, undefined, { asOfSeq: runs, byHour: [hour] });
    runs++;
    const { search: _search, ...services } = stack;
    let listings = 0;
    // Counts whole listings; every other method reaches the real query unchanged.
    const query = new Proxy(services.query, {
      get(target, key) {
        if (key === 'listSessions') {
          return (...args: Parameters<typeof target.listSessions>) => {
            listings++;
            return target.listSessions(...args);
          };
        }
        const value: unknown = Reflect.get(target, key);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    const signal = new AbortController().signal;
    const indexed = await usageSummary({ ...services, query }, { by: 'session', ids: ['s1', 's2'] }, signal);
    expect(listings).toBe(0);
    expect(indexed.totals.sessions).toBe(2);
    expect(indexed.bodyReads).toBe(0);
    const missing = await usageSummary(
      { ...services, query },
      { by: 'session', ids: ['s1', 'nope'] },
      signal,
    );
    expect(listings).toBe(1);
    expect(missing.totals.sessions).toBe(1);
  });
});

let runs = 0;

/** Costs to 12 significant digits: a sum of floats depends on the order it adds (sessions, models). */
function costsRounded(summary: UsageSummary): UsageSummary {
  const round = (usd: number | null) => (usd === null ? null : Number(usd.toPrecision(12)));
  const figures = <T extends UsageFigures>(row: T): T => ({
    ...row,
    totalCost: round(row.totalCost),
    reportedCost: round(row.reportedCost),
  });
  return { rows: summary.rows.map(figures), totals: figures(summary.totals) };
}
