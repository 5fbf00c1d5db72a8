import { describe, expect, it } from 'vitest';
import type { UsageRow } from '@strand/protocol';
import { costLabel, sessionCosts } from './session-costs.js';

const row = (key: string, figures: Partial<UsageRow>): UsageRow => ({
  key,
  label: key,
  sessions: 1,
  models: [],
  inputTokens: 10,
  outputTokens: 10,
  cacheCreationTokens: 0,
  cacheReadTokens: 0,
  reasoningTokens: 0,
  totalTokens: 20,
  totalCost: null,
  unpricedModels: [],
  ...figures,
});

describe('session costs in list rows', () => {
  it("keys the host's per-session rows by session id, the harness's own figure beside", () => {
    const costs = sessionCosts([
      row('alpha', { totalCost: 0.0725, reportedCost: 0.08 }),
      row('beta', { unpricedModels: ['my-model'] }),
      row('old-host', { totalCost: 1 }),
    ]);
    expect([...costs.keys()]).toEqual(['alpha', 'beta', 'old-host']);
    expect(costs.get('alpha')).toEqual({ cost: 0.0725, unpriced: [], reported: 0.08 });
    // A host older than `reportedCost` leaves it out: no harness figure, not zero.
    expect(costs.get('old-host')?.reported).toBeNull();
  });

  it('says "—" for an unpriced session and marks a partly priced one, naming what is missing', () => {
    expect(costLabel({ cost: 0.0725, unpriced: [], reported: null }, 'en-US')).toEqual({
      text: '$0.07',
      title: 'cost by the price table: $0.07',
    });
    const unknown = costLabel({ cost: null, unpriced: ['my-model'], reported: null }, 'en-US');
    expect(unknown.text).toBe('—');
    expect(unknown.title).toContain('not priced: my-model');
    const partial = costLabel({ cost: 2, unpriced: ['my-model'], reported: 2.5 }, 'en-US');
    expect(partial.text).toBe('$2.00*');
    expect(partial.title).toContain('the harness reported $2.50');
  });
});
