import fc from 'fast-check';
import { SqliteCacheRowStore } from '@strand/projection-cache';
import type { SessionListRow } from '@strand/protocol';
import { describe, expect, it } from 'vitest';
import { filterArb, hintsArb, rowsArb } from '../testing/list-arbitraries.js';
import { indexPage } from './index-page.js';
import type { ListableRow } from './list-order.js';
import { listPage } from './list-page.js';

/*
 * `indexPage` (SQLite list index + the host's overlay) held to the pure `listPage` over the rows
 * the host would build from every header: same rows, same order, same cursors, page by page.
 */

type Role = 'cold' | 'live' | 'elsewhere' | 'live-unindexed';

const roleArb = fc.constantFrom<Role>('cold', 'cold', 'cold', 'live', 'elsewhere', 'live-unindexed');

const corpusArb = rowsArb.chain((rows) =>
  fc.tuple(
    fc.constant(rows),
    fc.array(roleArb, { minLength: rows.length, maxLength: rows.length }),
    // What the index holds of a live session: its last durable hints, older than the live ones.
    fc.array(fc.option(hintsArb, { nil: undefined }), { minLength: rows.length, maxLength: rows.length }),
  ),
);

function truthRow(row: ListableRow, role: Role): SessionListRow {
  const live = role === 'live' || role === 'live-unindexed';
  return {
    id: row.id,
    header: row.header,
    live,
    busy: role === 'elsewhere' || (live && row.busy),
    ...(role === 'elsewhere' ? { ownedElsewhere: true } : {}),
    ...(row.hints === undefined ? {} : { hints: row.hints }),
  };
}

const shape = (rows: readonly SessionListRow[]): unknown[] =>
  rows.map((row) => [row.id, row.live, row.busy, row.ownedElsewhere ?? false, row.hints ?? null]);

describe('indexPage', () => {
  it('pages exactly as listPage over every row: filters, busy overlay, live hints, cursors', async () => {
    await fc.assert(
      fc.asyncProperty(
        corpusArb,
        filterArb,
        fc.integer({ min: 1, max: 4 }),
        async ([rows, roles, stale], filter, limit) => {
          const store = SqliteCacheRowStore.open(':memory:');
          try {
            const truth = rows.map((row, i) => truthRow(row, roles[i]!));
            rows.forEach((row, i) => {
              const role = roles[i]!;
              if (role === 'live-unindexed') return;
              const hints = role === 'live' ? stale[i] : row.hints?.values;
              store.listIndex.upsert({
                header: row.header,
                incarnation: 'inc',
                hints: hints === undefined ? undefined : { asOfSeq: 0, values: hints },
              });
            });
            const overlay = {
              live: truth.filter((row) => row.live),
              elsewhere: new Set(truth.filter((row) => row.ownedElsewhere === true).map((row) => row.id)),
            };
            let cursor: string | undefined;
            for (let page = 0; page <= rows.length; page++) {
              const want = listPage(truth, { filter, limit, cursor });
              const got = await indexPage(store.listIndex, overlay, { filter, limit, cursor });
              if (want.kind !== 'page' || got.kind !== 'page') throw new Error('cursor refused');
              expect(shape(got.rows)).toEqual(shape(want.rows));
              expect(got.nextCursor).toBe(want.nextCursor);
              if (want.nextCursor === undefined) return;
              cursor = want.nextCursor;
            }
            throw new Error('paging did not end');
          } finally {
            store.close();
          }
        },
      ),
    );
  });

  it('refuses a cursor of another filter as listPage does', async () => {
    const store = SqliteCacheRowStore.open(':memory:');
    try {
      const cursor = 'e30.AAAAAAAAAAAAAAAA';
      const got = await indexPage(
        store.listIndex,
        { live: [], elsewhere: new Set() },
        { filter: { cwd: '/p' }, limit: 1, cursor },
      );
      expect(got).toEqual(listPage([], { filter: { cwd: '/p' }, limit: 1, cursor }));
      expect(got.kind).toBe('cursor-invalid');
    } finally {
      store.close();
    }
  });
});
