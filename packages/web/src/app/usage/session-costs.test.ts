import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SessionListRow, UsageRow } from '@strand/protocol';
import { costLabel, mergeCosts, sessionCosts, unpricedRows } from './session-costs.js';

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

  it('prices anew exactly the asked sessions: a row replaces, a missing row clears, the others stay', () => {
    const ids = fc.constantFrom<string>('a', 'b', 'c', 'd', 'e');
    fc.assert(
      fc.property(fc.uniqueArray(ids), fc.uniqueArray(ids), fc.uniqueArray(ids), (shown, asked, answered) => {
        const current = sessionCosts(shown.map((id) => row(id, { totalCost: 1 })));
        // The host answers only for sessions it was asked about.
        const rows = answered.filter((id) => asked.includes(id)).map((id) => row(id, { totalCost: 2 }));
        const next = mergeCosts(current, asked, rows);
        for (const id of ['a', 'b', 'c', 'd', 'e']) {
          const expected = asked.includes(id)
            ? rows.some((r) => r.key === id)
              ? 2
              : undefined
            : shown.includes(id)
              ? 1
              : undefined;
          expect(next.get(id)?.cost).toBe(expected);
        }
      }),
    );
  });

  it('asks for the rows never priced and the rows read anew, not the ones already priced', () => {
    const listRow = (id: string): SessionListRow => ({ header: { id } }) as unknown as SessionListRow;
    const a = listRow('a');
    const b = listRow('b');
    const bAgain = listRow('b');
    const priced = new Map([
      ['a', a],
      ['b', b],
    ]);
    expect(unpricedRows([a, bAgain, listRow('c')], priced).map((r) => r.header.id)).toEqual(['b', 'c']);
    expect(unpricedRows([a, b], priced)).toEqual([]);
  });
});
