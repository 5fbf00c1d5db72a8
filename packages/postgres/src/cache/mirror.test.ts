import type { CacheRow } from '@strand/projection-cache';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { heldBytes, RowMirror, type IdentityRows } from './mirror.js';

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
    // Held as known to have none (the database has none once the forget commits): no load needed.
    expect(mirror.held('s1')).toEqual({ identities: [], complete: true });
  });

  it('never changes an array it handed out', () => {
    const mirror = new RowMirror();
    mirror.apply(put([row('title', 1)]));
    const served = mirror.read('s1', 'inc-1', 0);
    mirror.apply(put([row('title', 3), row('usage', 3)]));
    expect(served).toEqual([row('title', 1)]);
  });

  it('replaces only the reloaded session ids, holding those the database lacks as known-empty', () => {
    const mirror = new RowMirror();
    mirror.apply(put([row('title', 1)]));
    mirror.apply({ ...put([row('title', 1)]), sessionId: 's2' });
    const stored = new Map<string, IdentityRows[]>([
      ['s1', [{ incarnation: 'inc-1', inheritedCut: 0, rows: [row('title', 5)] }]],
    ]);
    mirror.replaceSessions(['s1', 's3'], stored);
    expect(mirror.read('s1', 'inc-1', 0)).toEqual([row('title', 5)]);
    expect(mirror.read('s2', 'inc-1', 0)).toEqual([row('title', 1)]);
    expect(mirror.held('s3')).toEqual({ identities: [], complete: true });
    mirror.replaceSessions(['s2'], new Map());
    expect(mirror.read('s2', 'inc-1', 0)).toEqual([]);
  });

  it('holds a put of a session it had not loaded as incomplete, and a load makes it complete', () => {
    const mirror = new RowMirror();
    mirror.apply(put([row('title', 2)]));
    expect(mirror.held('s1')?.complete).toBe(false);
    expect(mirror.read('s1', 'inc-1', 0)).toEqual([row('title', 2)]);
    mirror.replaceSessions(
      ['s1'],
      new Map([
        ['s1', [{ incarnation: 'inc-1', inheritedCut: 0, rows: [row('title', 2), row('usage', 2)] }]],
      ]),
    );
    mirror.apply(put([row('title', 3)]));
    expect(mirror.held('s1')).toEqual({
      identities: [{ incarnation: 'inc-1', inheritedCut: 0, rows: [row('title', 3), row('usage', 2)] }],
      complete: true,
    });
  });

  it('evicts the least recently used session past maxSessions; a read counts as use', () => {
    const mirror = new RowMirror({ maxSessions: 3, maxBytes: 1_000_000 });
    for (const id of ['a', 'b', 'c']) mirror.apply({ ...put([row('title', 1)]), sessionId: id });
    expect(mirror.read('a', 'inc-1', 0)).toEqual([row('title', 1)]); // a is now the most recent
    mirror.apply({ ...put([row('title', 1)]), sessionId: 'd' });
    expect(mirror.heldIds().sort()).toEqual(['a', 'c', 'd']);
    expect(mirror.holds('b')).toBe(false);
    expect(mirror.read('b', 'inc-1', 0)).toEqual([]);
  });

  it('keeps the estimated bytes held within maxBytes, whatever the sizes of the sessions', () =>
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 30 }), fc.string({ maxLength: 400 })), { maxLength: 80 }),
        (puts) => {
          const maxBytes = 4_000;
          const mirror = new RowMirror({ maxSessions: 1_000, maxBytes });
          for (const [session, state] of puts)
            mirror.apply({ ...put([['title', 1, 1, state]]), sessionId: `s${session}` });
          let total = 0;
          for (const id of mirror.heldIds()) total += heldBytes(mirror.held(id)!);
          expect(total).toBe(mirror.bytes);
          expect(mirror.bytes).toBeLessThanOrEqual(maxBytes);
          // The last put fits on its own, so it is always held.
          const last = puts.at(-1);
          if (last !== undefined) expect(mirror.read(`s${last[0]}`, 'inc-1', 0).length).toBeGreaterThan(0);
        },
      ),
      { seed: 41, numRuns: 200 },
    ));
});
