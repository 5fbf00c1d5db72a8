import { describe, expect, it } from 'vitest';
import type { UsageRow } from '@strand/protocol';
import { loadUsage, SPLIT_DAYS, type UsageSummary, type UsageSummaryParams } from './usage-load.js';

function row(key: string, figures: Partial<UsageRow> = {}): UsageRow {
  return {
    key,
    label: key,
    sessions: 1,
    models: [],
    inputTokens: 0,
    outputTokens: 0,
    cacheCreationTokens: 0,
    cacheReadTokens: 0,
    reasoningTokens: 0,
    totalTokens: 0,
    totalCost: null,
    unpricedModels: [],
    ...figures,
  };
}

function summary(rows: UsageRow[]): UsageSummary {
  return { rows, totals: { ...row('total'), sessions: 0 }, timeZone: 'Europe/Berlin', pricing: 'test' };
}

describe('loadUsage', () => {
  it('asks each grouping once in the browser zone, and a per-model call only for multi-model days', async () => {
    const calls: UsageSummaryParams[] = [];
    const days = [
      row('2026-11-02', { totalCost: 1, models: ['a'] }),
      row('2026-11-03', { totalCost: 2, models: ['a', 'b'] }),
    ];
    const data = await loadUsage(
      (params) => {
        calls.push(params);
        if (params.by === 'day') return Promise.resolve(summary(days));
        if (params.by === 'model') return Promise.resolve(summary([row('a'), row('b')]));
        return Promise.resolve(summary([row(String(params.by))]));
      },
      { cwd: '/p', harness: 'codex', since: '2026-11-01', until: null },
      'Europe/Berlin',
    );
    const base = { timeZone: 'Europe/Berlin', since: '2026-11-01' };
    expect(calls).toEqual(
      expect.arrayContaining([
        { ...base, cwd: '/p', harness: 'codex', by: 'day' },
        { ...base, harness: 'codex', by: 'project' },
        { ...base, cwd: '/p', harness: 'codex', by: 'session' },
        { ...base, cwd: '/p', by: 'harness' },
        { ...base, cwd: '/p', harness: 'codex', by: 'model', since: '2026-11-03', until: '2026-11-03' },
      ]),
    );
    expect(calls).toHaveLength(5);
    expect([...data.dayModels.keys()]).toEqual(['2026-11-03']);
    expect(data.sessions.map((r) => r.key)).toEqual(['session']);
  });

  it(`splits at most ${SPLIT_DAYS} days, however many have several models`, async () => {
    let modelCalls = 0;
    const days = Array.from({ length: 40 }, (_, i) =>
      row(new Date(Date.UTC(2026, 9, 1 + i)).toISOString().slice(0, 10), {
        totalCost: 1,
        models: ['a', 'b'],
      }),
    );
    await loadUsage(
      (params) => {
        if (params.by === 'model') modelCalls++;
        return Promise.resolve(summary(params.by === 'day' ? days : []));
      },
      { cwd: null, harness: null, since: null, until: null },
      'UTC',
    );
    expect(modelCalls).toBe(SPLIT_DAYS);
  });
});
