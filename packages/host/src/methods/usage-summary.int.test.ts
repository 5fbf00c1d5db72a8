import { persistenceWriter } from '@strand/persistence';
import { Session, SessionId, SessionLogOffset, SessionSeq, newSessionHeader } from '@strand/session';
import { openTempStack, type TempStack } from '@strand/stack/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { usageSummary } from './usage-summary.js';

let stack: TempStack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

const TIME = Date.parse('2026-11-02T12:00:00Z');

async function withAnswer(into: TempStack, id: string, output: number): Promise<void> {
  const header = newSessionHeader({ id: SessionId(id), createdAt: TIME, cwd: '/work' });
  const { incarnation } = await into.persistence.create({ header });
  const session = new Session({
    header,
    incarnation,
    writer: persistenceWriter(into.persistence, header.id),
  });
  await session.append([
    { type: 'turn/start', data: {}, time: TIME },
    { type: 'user/message', data: { content: 'go', author: 'human' }, time: TIME },
    { type: 'assistant/message', data: { content: 'done', usage: { input: 1, output } }, time: TIME },
    { type: 'turn/end', data: { reason: 'completed' }, time: TIME },
  ]);
}

describe('usage.summary with ids', () => {
  it('sums only the sessions named: one without usage or unknown adds nothing, the rest are left out', async () => {
    stack = await openTempStack({ prefix: 'strand-usage-ids' });
    await withAnswer(stack, 'alpha', 10);
    await withAnswer(stack, 'beta', 200);
    await withAnswer(stack, 'gamma', 3_000);
    const { search: _search, ...services } = stack;
    const signal = new AbortController().signal;
    const all = await usageSummary(services, { by: 'session' }, signal);
    expect(all.rows.map((row) => row.key).sort()).toEqual(['alpha', 'beta', 'gamma']);
    const some = await usageSummary(services, { by: 'session', ids: ['gamma', 'alpha', 'no-such'] }, signal);
    expect(some.rows.map((row) => [row.key, row.outputTokens]).sort()).toEqual([
      ['alpha', 10],
      ['gamma', 3_000],
    ]);
    expect(some.totals.outputTokens).toBe(3_010);
  });
});

describe('usage.summary over the list index', () => {
  it('a cold summary writes each session its usage hours beside its list row; the next reads no log', async () => {
    stack = await openTempStack({ prefix: 'strand-usage-warm' });
    await withAnswer(stack, 'alpha', 10);
    await withAnswer(stack, 'beta', 200);
    const { search: _search, ...services } = stack;
    const signal = new AbortController().signal;
    const cold = await usageSummary(services, { by: 'day', timeZone: 'UTC' }, signal);
    const indexed = await stack.cache.listIndex!.usage({});
    expect(indexed.map((s) => [s.id, s.byHour.map((h) => h.output)]).sort()).toEqual([
      ['alpha', [10]],
      ['beta', [200]],
    ]);
    const warm = await usageSummary(services, { by: 'day', timeZone: 'UTC' }, signal);
    expect(warm.bodyReads).toBe(0);
    expect({ ...warm, bodyReads: cold.bodyReads }).toEqual(cold);
    expect(warm.totals.outputTokens).toBe(210);
  });
});

describe('usage.summary and a cache that holds only some sessions in memory', () => {
  it('readies the cold sessions’ cache rows (prefetch) before reading them synchronously', async () => {
    stack = await openTempStack({ prefix: 'strand-usage-prefetch' });
    await withAnswer(stack, 'alpha', 10);
    await withAnswer(stack, 'beta', 200);
    const { search: _search, ...services } = stack;
    const prefetch = vi.spyOn(stack.cache, 'prefetch');
    const cachedValues = vi.spyOn(stack.cache, 'cachedValues');
    await usageSummary(services, { by: 'session' }, new AbortController().signal);
    // The first, all the cold sessions at once; then each observation of a session the cache missed.
    expect([...prefetch.mock.calls[0]![0]].sort()).toEqual(['alpha', 'beta']);
    expect(prefetch.mock.invocationCallOrder[0]!).toBeLessThan(cachedValues.mock.invocationCallOrder[0]!);
  });
});

describe('usage.summary of a seeded session', () => {
  it("counts only its own responses, and is served from the list index once observed (not the parent's prefix)", async () => {
    stack = await openTempStack({ prefix: 'strand-usage-seeded' });
    const answer = (output: number) => ({
      type: 'assistant/message',
      seq: 0,
      time: TIME,
      data: { content: 'done', usage: { input: 1, output } },
    });
    const inherited = [0, 1].map((seq) => ({ ...answer(500), seq: SessionSeq(seq) }));
    const header = {
      ...newSessionHeader({ id: SessionId('fork'), createdAt: TIME, cwd: '/work' }),
      isSeeded: true,
    };
    const { incarnation } = await stack.persistence.create({ header, inheritedEvents: inherited });
    const session = new Session({
      header,
      incarnation,
      inheritedEventCount: SessionLogOffset(inherited.length),
      events: inherited,
      writer: persistenceWriter(stack.persistence, header.id),
    });
    await session.append([
      { type: 'assistant/message', data: { content: 'own', usage: { input: 2, output: 7 } }, time: TIME },
    ]);
    const { search: _search, ...services } = stack;
    const signal = new AbortController().signal;
    const cold = await usageSummary(services, { by: 'session' }, signal);
    expect(cold.totals.outputTokens).toBe(7);
    const warm = await usageSummary(services, { by: 'session' }, signal);
    expect(warm.bodyReads).toBe(0);
    expect(warm.totals.outputTokens).toBe(7);
  });
});
