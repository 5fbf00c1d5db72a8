import { describe, expect, it } from 'vitest';
import type { MatchRow } from './ranked-window.js';
import { rankWindow } from './ranked-window.js';

describe('rankWindow', () => {
  it('groups rows per session, keeps the best three hits and sums them into the score', () => {
    const rows: MatchRow[] = [
      [9, 5, -1],
      [9, 4, -3],
      [9, 3, -2],
      [9, 1, -4],
      [7, 0, -6],
    ];
    const { entries, nextUpperSid } = rankWindow(rows, 100);
    expect(entries).toEqual([
      { sid: 9, score: 9, hits: [1, 4, 3] },
      { sid: 7, score: 6, hits: [0] },
    ]);
    expect(nextUpperSid).toBeNull();
  });

  it('breaks score ties on the newer session and continues a full window below its lowest session', () => {
    const rows: MatchRow[] = [
      [5, 0, -1],
      [4, 0, -1],
      [3, 2, -1],
    ];
    const { entries, nextUpperSid } = rankWindow(rows, 3);
    expect(entries.map((e) => e.sid)).toEqual([5, 4, 3]);
    expect(nextUpperSid).toBe(3);
    expect(rankWindow([], 3)).toEqual({ entries: [], nextUpperSid: null });
  });
});
