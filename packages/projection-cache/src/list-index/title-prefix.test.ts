import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { prepareSchema } from '../schema.js';
import { listHeader } from '../testing/fixtures.js';
import { titlePrefixEnd, type ListIndexRow } from './list-row.js';
import { SqliteListIndex } from './sqlite-list-index.js';

/** Code point order, as SQLite's BINARY collation compares UTF-8 and PostgreSQL's "C" collation. */
const compare = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));

describe('titlePrefixEnd', () => {
  it('bounds exactly the strings that start with the prefix, in code point order', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (prefix, other) => {
        const end = titlePrefixEnd(prefix);
        // Every string with the prefix lies in [prefix, end).
        const extended = prefix + other;
        expect(compare(prefix, extended)).toBeLessThanOrEqual(0);
        if (end !== undefined) expect(compare(extended, end)).toBeLessThan(0);
        // And no string in [prefix, end) lacks it: the range holds the prefix's rows alone.
        if (end !== undefined && compare(prefix, other) <= 0 && compare(other, end) < 0)
          expect(other.startsWith(prefix)).toBe(true);
      }),
      { seed: 41_062, numRuns: 2_000 },
    );
  });

  it('raises the last code point past the surrogates and carries past U+10FFFF', () => {
    expect(titlePrefixEnd('al')).toBe('am');
    expect(titlePrefixEnd('a\uD7FF')).toBe('a\uE000');
    expect(titlePrefixEnd('a\u{10FFFF}')).toBe('b');
    expect(titlePrefixEnd('x\u{1F600}')).toBe('x\u{1F601}');
  });

  it('gives no bound where none exists or none is safe', () => {
    expect(titlePrefixEnd('')).toBeUndefined();
    expect(titlePrefixEnd('\u{10FFFF}\u{10FFFF}')).toBeUndefined();
    expect(titlePrefixEnd('a\uD800')).toBeUndefined();
  });
});

const TITLES = ['alpha', 'alps', 'Al', 'al%', 'am', 'b', '', 'x\u{1F600}y', 'x\u{1F601}', 'é', 'e\u0301'];
const PREFIXES = ['al', 'alp', 'Al', 'a', 'x\u{1F600}', 'x', 'é', 'e', 'z', ''];

function indexWith(rows: readonly ListIndexRow[], titleRangeMaxRows: number): SqliteListIndex {
  const db = new Database(':memory:');
  prepareSchema(db);
  const index = new SqliteListIndex(db, { titleRangeMaxRows });
  for (const row of rows) index.upsert(row);
  return index;
}

async function allPages(index: SqliteListIndex, titlePrefix: string, limit: number): Promise<string[]> {
  const ids: string[] = [];
  let after: { at: number; id: string } | undefined;
  for (;;) {
    const page = await index.page({
      filter: { titlePrefix },
      limit,
      ...(after === undefined ? {} : { after }),
    });
    ids.push(...page.map((row) => row.header.id));
    if (page.length < limit) return ids;
    const last = page.at(-1)!;
    after = { at: last.header.createdAt, id: last.header.id };
  }
}

describe('SqliteListIndex, a title prefix read either way', () => {
  it('pages the same rows through the title index as in the list order, and as a brute force', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({ title: fc.constantFrom(...TITLES), createdAt: fc.integer({ min: 0, max: 9 }) }),
          {
            maxLength: 30,
          },
        ),
        fc.constantFrom(...PREFIXES),
        fc.integer({ min: 1, max: 4 }),
        async (specs, prefix, limit) => {
          const rows: ListIndexRow[] = specs.map((spec, i) => ({
            header: listHeader(`s${String(i).padStart(2, '0')}`, {
              createdAt: spec.createdAt,
              harness: 'strand',
              subagent: false,
            }),
            incarnation: 'inc-1',
            hints: { asOfSeq: 1, values: { title: spec.title } },
          }));
          const expected = rows
            .filter((row) => (row.hints!.values.title as string).startsWith(prefix))
            .sort((a, b) => b.header.createdAt - a.header.createdAt || (a.header.id < b.header.id ? -1 : 1))
            .map((row) => row.header.id);
          // A line of 1 reads every prefix with a row in the list order; a high one, through the title index.
          for (const line of [1, 3, 1_000_000])
            expect(await allPages(indexWith(rows, line), prefix, limit)).toEqual(expected);
        },
      ),
      { seed: 41_063, numRuns: 150 },
    );
  });
});
