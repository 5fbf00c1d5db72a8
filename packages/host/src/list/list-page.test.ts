import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { SessionId } from '@strand/session';
import { describe, expect, it } from 'vitest';
import { encodeListCursor } from './list-cursor.js';
import { filterArb, IDS, rowArb, rowsArb } from '../testing/list-arbitraries.js';
import { filterDigest, type ListFilter } from './list-filter.js';
import type { ListableRow } from './list-order.js';
import { listPage } from './list-page.js';

/*
 * `listPage` against a brute-force list written here without the module's helpers: filter every
 * row, sort by (activity desc, id asc), and compare with what paging hands out.
 */

function bruteActivity(row: ListableRow): number {
  const metadata = row.hints?.values.listMetadata as { lastPromptAt?: unknown } | undefined;
  return typeof metadata?.lastPromptAt === 'number' ? metadata.lastPromptAt : row.header.createdAt;
}

/** The last folder name, by splitting rather than by the module's helper. */
function bruteFolderName(cwd: string | undefined): string | null {
  return cwd === undefined
    ? null
    : (cwd
        .replace(/[/\\]+$/, '')
        .split(/[/\\]/)
        .at(-1) ?? '');
}

function bruteMatches(row: ListableRow, f: ListFilter): boolean {
  const h = row.header;
  const parent = h.origin === 'subagent' ? (h.parentSession ?? null) : null;
  const title = row.hints?.values.title;
  return (
    (f.cwd === undefined || h.cwd === f.cwd) &&
    (f.projectName === undefined || bruteFolderName(h.cwd) === f.projectName) &&
    (f.harness === undefined || (h.source?.harness ?? 'strand') === f.harness) &&
    (f.parent === undefined || parent === f.parent) &&
    (f.busy === undefined || row.busy === f.busy) &&
    (f.titlePrefix === undefined || (typeof title === 'string' && title.startsWith(f.titlePrefix)))
  );
}

function bruteList(rows: readonly ListableRow[], filter: ListFilter): string[] {
  return rows
    .filter((row) => bruteMatches(row, filter))
    .sort((a, b) => bruteActivity(b) - bruteActivity(a) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((row) => row.id);
}

/** Pages until the end, asking for `sizes[i % n]` rows on page i; `between` runs before each later page. */
function pageThrough(
  rows: () => readonly ListableRow[],
  filter: ListFilter,
  sizes: readonly number[],
  between: (page: number) => void = () => {},
): string[] {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; ; page++) {
    if (page > 0) between(page);
    const limit = sizes[page % sizes.length]!;
    const result = listPage(rows(), { filter, limit, cursor });
    if (result.kind !== 'page') throw new Error(`page ${page}: cursor ${result.problem}`);
    expect(result.rows.length).toBeLessThanOrEqual(limit);
    ids.push(...result.rows.map((row) => row.id));
    if (result.nextCursor === undefined) return ids;
    expect(result.rows).toHaveLength(limit);
    cursor = result.nextCursor;
  }
}

const sizesArb = fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 4 });

describe('listPage', () => {
  it('paging through with any page sizes yields exactly the filtered, ordered rows, each once', () => {
    fc.assert(
      fc.property(rowsArb, filterArb, sizesArb, (rows, filter, sizes) => {
        expect(pageThrough(() => rows, filter, sizes)).toEqual(bruteList(rows, filter));
      }),
    );
  });

  it('one page as large as the list is the whole filtered list, without a nextCursor', () => {
    fc.assert(
      fc.property(rowsArb, filterArb, (rows, filter) => {
        const result = listPage(rows, { filter, limit: rows.length + 1 });
        expect(result).toMatchObject({ kind: 'page', nextCursor: undefined });
        if (result.kind === 'page') expect(result.rows.map((row) => row.id)).toEqual(bruteList(rows, filter));
      }),
    );
  });

  it('inserts between pages never list a row twice nor drop a row that was there from the start', () => {
    let fresh = 0;
    const insertsArb = fc.array(fc.array(rowArb('new'), { maxLength: 3 }), { maxLength: 6 });
    fc.assert(
      fc.property(rowsArb, filterArb, sizesArb, insertsArb, (initial, filter, sizes, inserts) => {
        const rows: ListableRow[] = [...initial];
        const listed = pageThrough(
          () => rows,
          filter,
          sizes,
          (page) => {
            for (const row of inserts[page - 1] ?? []) {
              const id = `new-${fresh++}`;
              rows.push({ ...row, id, header: { ...row.header, id: SessionId(id) } });
            }
          },
        );
        expect(new Set(listed).size).toBe(listed.length);
        for (const id of bruteList(initial, filter)) expect(listed).toContain(id);
        // The pass as a whole is in list order: each page starts strictly after the one before.
        expect(listed).toEqual(bruteList(rows, filter).filter((id) => listed.includes(id)));
      }),
    );
  });

  it('a cursor given with another filter is refused as other-filter; with its own it continues', () => {
    fc.assert(
      fc.property(
        rowsArb,
        filterArb,
        filterArb,
        fc.integer({ min: 0, max: 6 }),
        (rows, issued, given, at) => {
          const cursor = encodeListCursor({ at, id: 'b' }, filterDigest(issued));
          const result = listPage(rows, { filter: given, limit: 3, cursor });
          const same = JSON.stringify(normalized(issued)) === JSON.stringify(normalized(given));
          expect(result.kind === 'page' ? 'page' : result.problem).toBe(same ? 'page' : 'other-filter');
        },
      ),
    );
  });

  it('a cursor with any byte altered, cut or extended is refused, never read as another position', () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/ ';
    fc.assert(
      fc.property(
        rowsArb,
        filterArb,
        fc.integer({ min: 0, max: 6 }),
        fc.constantFrom(...IDS),
        fc.nat(),
        fc.constantFrom(...alphabet),
        fc.constantFrom('replace', 'delete', 'insert'),
        (rows, filter, at, id, where, char, edit) => {
          const cursor = encodeListCursor({ at, id }, filterDigest(filter));
          const i = where % cursor.length;
          const altered =
            edit === 'replace'
              ? cursor.slice(0, i) + char + cursor.slice(i + 1)
              : edit === 'delete'
                ? cursor.slice(0, i) + cursor.slice(i + 1)
                : cursor.slice(0, i) + char + cursor.slice(i);
          fc.pre(altered !== cursor);
          const result = listPage(rows, { filter, limit: 2, cursor: altered });
          expect(result).toMatchObject({ kind: 'cursor-invalid' });
        },
      ),
    );
  });

  it('any string as a cursor is refused without throwing', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (cursor) => {
        expect(listPage([], { filter: {}, limit: 1, cursor })).toMatchObject({ kind: 'cursor-invalid' });
      }),
    );
  });

  it('names the problem: malformed, altered, other-filter', () => {
    const cursor = encodeListCursor({ at: 5, id: 'a' }, filterDigest({ cwd: '/p' }));
    const [payload, sum] = cursor.split('.') as [string, string];
    const forged = `${Buffer.from(JSON.stringify([1, 9, 'a', filterDigest({ cwd: '/p' })])).toString('base64url')}.${sum}`;
    expect(listPage([], { filter: { cwd: '/p' }, limit: 1, cursor: 'nope' })).toEqual({
      kind: 'cursor-invalid',
      problem: 'malformed',
    });
    expect(listPage([], { filter: { cwd: '/p' }, limit: 1, cursor: forged })).toEqual({
      kind: 'cursor-invalid',
      problem: 'altered',
    });
    expect(listPage([], { filter: { cwd: '/q' }, limit: 1, cursor: `${payload}.${sum}` })).toEqual({
      kind: 'cursor-invalid',
      problem: 'other-filter',
    });
    // `parent: null` (top-level only) is another filter than no `parent` at all.
    expect(filterDigest({ parent: null })).not.toBe(filterDigest({}));
  });
});

/** The filter's defined fields, in a fixed order (a test-local notion of "the same filter"). */
function normalized(filter: ListFilter): unknown[] {
  return (['cwd', 'projectName', 'harness', 'parent', 'busy', 'titlePrefix'] as const).map((key) =>
    filter[key] === undefined ? '<any>' : filter[key],
  );
}

describe('filter digests', () => {
  it('a filter without projectName digests as before it existed: cursors issued then continue', () => {
    // The digest as written before `projectName`: sha256 of the five fields, base64url, 16 chars.
    const before = (fields: unknown[]) =>
      createHash('sha256').update(JSON.stringify(fields)).digest('base64url').slice(0, 16);
    expect(filterDigest({ cwd: '/p' })).toBe(before(['/p', 0, 0, 0, 0]));
    expect(filterDigest({ parent: null, titlePrefix: 'al' })).toBe(before([0, 0, [null], 0, 'al']));
    expect(filterDigest({ cwd: '/p', projectName: 'p' })).not.toBe(filterDigest({ cwd: '/p' }));
  });
});
