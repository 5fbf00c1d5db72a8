import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parentsFirst, type ParentedRow } from './parents-first.js';

/** Rows with ids r0..r(n-1); each parent is any id, a missing one, or none (loops included). */
const rowsArb = fc
  .integer({ min: 0, max: 12 })
  .chain((n) =>
    fc
      .array(fc.option(fc.integer({ min: 0, max: n + 1 }), { nil: null }), { minLength: n, maxLength: n })
      .map((parents): ParentedRow[] =>
        parents.map((p, i) => ({ id: `r${i}`, parentId: p === null ? null : `r${p}` })),
      ),
  );

/** Whether `id`'s parent chain reaches a row it has already visited. */
function inLoop(id: string, byId: ReadonlyMap<string, ParentedRow>): boolean {
  const seen = new Set<string>();
  for (let r = byId.get(id); r !== undefined; r = r.parentId === null ? undefined : byId.get(r.parentId)) {
    if (seen.has(r.id)) return true;
    seen.add(r.id);
  }
  return false;
}

describe('parentsFirst', () => {
  it('keeps every row once, and puts each parent outside a loop before its children', () => {
    fc.assert(
      fc.property(rowsArb, (rows) => {
        const ordered = parentsFirst(rows);
        expect([...ordered].sort((a, b) => a.id.localeCompare(b.id))).toEqual(
          [...rows].sort((a, b) => a.id.localeCompare(b.id)),
        );
        const byId = new Map(rows.map((r) => [r.id, r]));
        const at = new Map(ordered.map((r, i) => [r.id, i]));
        for (const row of ordered) {
          if (row.parentId === null || !byId.has(row.parentId) || inLoop(row.id, byId)) continue;
          expect(at.get(row.parentId)!).toBeLessThan(at.get(row.id)!);
        }
      }),
    );
  });

  it('keeps the given order among rows of one depth', () => {
    const rows = [
      { id: 'c', parentId: 'a' },
      { id: 'b', parentId: null },
      { id: 'd', parentId: 'b' },
      { id: 'a', parentId: null },
    ];
    expect(parentsFirst(rows).map((r) => r.id)).toEqual(['b', 'a', 'c', 'd']);
  });
});
