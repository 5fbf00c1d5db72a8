import { createHash } from 'node:crypto';
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, noPostgres, type TestDatabase } from '../testing/index.js';
import { prepareSearchSchema } from './search-schema.js';

// Short words repeat and so make adjacent pairs and near misses; two words of about 1 KB make a
// long pair; the longest is over the 2,047-byte bound of a word and is not indexed at all.
const WORDS = ['gannet', 'tern', 'a', 'b', 'o', 'x'.repeat(1022), 'y'.repeat(1023), 'z'.repeat(2048)];

/** A pair's lexeme, as `strand_search_with_pairs` spells it: `_` and 4 hex digits of md5("a b"). */
const pair = (a: string, b: string): string =>
  `_${createHash('md5').update(`${a} ${b}`).digest('hex').slice(0, 4)}`;

/** Schema 6's match: the words alone, the phrase on positions. What the pairs may only narrow. */
const PLAIN_MATCH = `to_tsvector('simple', $1) @@ phraseto_tsquery('simple', $2)`;
const PAIRED_MATCH = `strand_search_tsv($1) @@ strand_search_phrase($2)`;

describe.skipIf(noPostgres)('the search vector and phrase functions', () => {
  let db: TestDatabase;
  let pool: pg.Pool;
  beforeAll(async () => {
    db = await createTestDatabase('strand_ts_functions');
    pool = new pg.Pool({ connectionString: db.url, max: 2 });
    await prepareSearchSchema(pool);
  });
  afterAll(async () => {
    await pool.end();
    await db.drop();
  });

  async function matches(text: string, term: string): Promise<{ plain: boolean; paired: boolean }> {
    const { rows } = await pool.query<{ plain: boolean; paired: boolean }>(
      `SELECT ${PLAIN_MATCH} AS plain, ${PAIRED_MATCH} AS paired`,
      [text, term],
    );
    return rows[0]!;
  }

  it('match exactly what the words and positions alone match, for any text and term', async () => {
    const words = (max: number) => fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: max });
    await fc.assert(
      fc.asyncProperty(words(24), words(4), async (text, term) => {
        const { plain, paired } = await matches(text.join(' '), term.join(' '));
        expect(paired).toBe(plain);
      }),
      { numRuns: 300, seed: 20_261_206 },
    );
  });

  it('hold each adjacent pair once per position, and a phrase query requires its pairs', async () => {
    const { rows } = await pool.query<{ tsv: string; q: string }>(
      "SELECT strand_search_tsv('a b a b') AS tsv, strand_search_phrase('gannet tern gannet') AS q",
    );
    expect(rows[0]!.tsv).toBe(
      [`'${pair('a', 'b')}':1,3`, `'${pair('b', 'a')}':2`, "'a':1,3", "'b':2,4"].sort().join(' '),
    );
    const pairs = [pair('gannet', 'tern'), pair('tern', 'gannet')].sort();
    expect(rows[0]!.q).toBe(`'gannet' <-> 'tern' <-> 'gannet' & ( '${pairs[0]}' & '${pairs[1]}' | '_' )`);
    // A one-word term is the word alone: its query and rank are schema 6's.
    expect(
      (await pool.query<{ q: string }>("SELECT strand_search_phrase('tern')::text AS q")).rows[0]!.q,
    ).toBe("'tern'");
  });

  it('write any word back as itself: a quote or a backslash stays data, never tsvector syntax', async () => {
    const { rows } = await pool.query<{ lexemes: string[] }>(
      `SELECT tsvector_to_array(strand_search_with_pairs($$'it''s':1 'a\\\\b':2 'c':3$$::tsvector)) AS lexemes`,
    );
    expect(rows[0]!.lexemes).toEqual([pair("it's", 'a\\b'), pair('a\\b', 'c'), 'a\\b', 'c', "it's"].sort());
  });

  it('keep a pair repeated past the 256 positions a lexeme holds', async () => {
    const text = 'gannet tern '.repeat(400);
    expect(await matches(text, 'tern gannet')).toEqual({ plain: true, paired: true });
    expect(await matches(text, 'gannet gannet')).toEqual({ plain: false, paired: false });
  });

  it('pair a word with every word its position is clamped into, as the phrase match does', async () => {
    // Positions stop at 16,383: gannet is at 16,382, and tern, osprey and puffin all at 16,383.
    const text = `${'w '.repeat(16_381)}gannet tern osprey puffin`;
    expect(await matches(text, 'gannet osprey')).toEqual({ plain: true, paired: true });
    expect(await matches(text, 'gannet puffin')).toEqual({ plain: true, paired: true });
    expect(await matches(text, 'tern osprey')).toEqual({ plain: false, paired: false });
  });

  it('mark a row whose pairs do not fit a vector, and still find its phrases', async () => {
    // ~256 K characters of unique short tokens: the words fit in a vector, words and pairs do not.
    const tokens = Array.from({ length: 40_000 }, (_, i) => `k${i.toString(36)}`);
    const text = tokens.join(' ');
    const { rows } = await pool.query<{ marked: boolean }>(
      "SELECT strand_search_tsv($1) @@ '_'::tsquery AS marked",
      [text],
    );
    expect(rows[0]!.marked).toBe(true);
    expect(await matches(text, `${tokens[10_000]} ${tokens[10_001]}`)).toEqual({ plain: true, paired: true });
    expect(await matches(text, `${tokens[10_001]} ${tokens[10_000]}`)).toEqual({
      plain: false,
      paired: false,
    });
  });
});
