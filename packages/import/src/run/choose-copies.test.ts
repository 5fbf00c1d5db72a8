import { describe, expect, it } from 'vitest';
import type { LedgerEntry } from '../ledger/ledger.js';
import { chooseCopies } from './choose-copies.js';

const entry = (primaryId: string, size: number, extra: Partial<LedgerEntry> = {}): LedgerEntry => ({
  harness: 'codex',
  size,
  mtimeMs: 1,
  hash: 'h',
  companions: [],
  sessions: [{ id: primaryId, events: 3 }],
  primaryId,
  rank: 0,
  ...extra,
});

describe('chooseCopies', () => {
  it('keeps the larger of two changed copies of one session', () => {
    const choice = chooseCopies(
      [
        { file: '/a', primaryId: 's', rank: 0, size: 10 },
        { file: '/b', primaryId: 's', rank: 0, size: 20 },
        { file: '/c', primaryId: 't', rank: 0, size: 5 },
      ],
      new Map(),
    );
    expect([...choice.winners].sort()).toEqual(['/b', '/c']);
    expect(choice.losers).toEqual([{ file: '/a', primaryId: 's', winner: '/b' }]);
  });

  it('prefers a higher rank over size (a JSONL chat over the whole-JSON it was migrated from)', () => {
    const choice = chooseCopies(
      [
        { file: '/x.json', primaryId: 's', rank: 0, size: 900 },
        { file: '/x.jsonl', primaryId: 's', rank: 1, size: 100 },
      ],
      new Map(),
    );
    expect([...choice.winners]).toEqual(['/x.jsonl']);
  });

  it('lets an unchanged copy that is larger win over a changed smaller one, and writes nothing', () => {
    const choice = chooseCopies(
      [{ file: '/small', primaryId: 's', rank: 0, size: 10 }],
      new Map([['/big', entry('s', 50)]]),
    );
    expect(choice.winners.size).toBe(0);
    expect(choice.losers).toEqual([{ file: '/small', primaryId: 's', winner: '/big' }]);
  });

  it('ignores unchanged files of other sessions and known duplicates', () => {
    const choice = chooseCopies(
      [{ file: '/new', primaryId: 's', rank: 0, size: 10 }],
      new Map([
        ['/other', entry('t', 99)],
        ['/old-dup', entry('s', 99, { duplicateOf: '/somewhere' })],
      ]),
    );
    expect([...choice.winners]).toEqual(['/new']);
    expect(choice.losers).toEqual([]);
  });
});
