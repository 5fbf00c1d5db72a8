import type { CacheRow } from '@strand/projection-cache';
import { describe, expect, it } from 'vitest';
import { RowMirror, type IdentityRows } from './mirror.js';

const row = (key: string, cut: number, stateVersion = 1): CacheRow => [
  key,
  stateVersion,
  cut,
  `{"c":${cut}}`,
];
const put = (rows: CacheRow[], incarnation = 'inc-1', inheritedCut = 0) =>
  ({ kind: 'put', sessionId: 's1', incarnation, inheritedCut, rows }) as const;

describe('RowMirror', () => {
  it('keeps the newer cut of a stateVersion and takes any cut of another stateVersion', () => {
    const mirror = new RowMirror();
    mirror.apply(put([row('title', 4), row('usage', 4)]));
    mirror.apply(put([row('title', 2), row('usage', 2, 2)]));
    expect(mirror.read('s1', 'inc-1', 0)).toEqual([row('title', 4), row('usage', 2, 2)]);
  });

  it('drops every other identity of the id on a put, and all of them on forget', () => {
    const mirror = new RowMirror();
    mirror.apply(put([row('title', 4)], 'old'));
    mirror.apply(put([row('title', 1)], 'new', 1));
    expect(mirror.read('s1', 'old', 0)).toEqual([]);
    expect(mirror.read('s1', 'new', 1)).toEqual([row('title', 1)]);
    mirror.apply({ kind: 'forget', sessionId: 's1' });
    expect(mirror.read('s1', 'new', 1)).toEqual([]);
    expect(mirror.sessionCount).toBe(0);
  });

  it('never changes an array it handed out', () => {
    const mirror = new RowMirror();
    mirror.apply(put([row('title', 1)]));
    const served = mirror.read('s1', 'inc-1', 0);
    mirror.apply(put([row('title', 3), row('usage', 3)]));
    expect(served).toEqual([row('title', 1)]);
  });

  it('replaces only the reloaded session ids, removing those the database no longer holds', () => {
    const mirror = new RowMirror();
    mirror.apply(put([row('title', 1)]));
    mirror.apply({ ...put([row('title', 1)]), sessionId: 's2' });
    const stored = new Map<string, IdentityRows[]>([
      ['s1', [{ incarnation: 'inc-1', inheritedCut: 0, rows: [row('title', 5)] }]],
    ]);
    mirror.replaceSessions(['s1', 's3'], stored);
    expect(mirror.read('s1', 'inc-1', 0)).toEqual([row('title', 5)]);
    expect(mirror.read('s2', 'inc-1', 0)).toEqual([row('title', 1)]);
    mirror.replaceSessions(['s2'], new Map());
    expect(mirror.read('s2', 'inc-1', 0)).toEqual([]);
  });
});
