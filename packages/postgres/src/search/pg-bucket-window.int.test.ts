import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, noPostgres, type TestDatabase } from '../testing/index.js';
import { matchWindow } from './pg-match-queries.js';
import { BUCKET_SHIFT } from './search-buckets.js';
import { prepareSearchSchema } from './search-schema.js';
import { tsquerySql } from './ts-text.js';

const WORDS = ['gannet', 'puffin', 'heron', 'tern', 'osprey'] as const;
const BUCKET = 2 ** BUCKET_SHIFT;

/**
 * The window as one statement over every match, on words and positions alone (schema 6's plan and
 * vectors): what the bucket walk over vectors with pairs must equal.
 */
async function reference(
  client: pg.ClientBase,
  term: string,
  upperSid: number | null,
  size: number,
  cwd: string | null,
): Promise<[number, number][]> {
  const { rows } = await client.query<{ sid: string; seq: string }>(
    `SELECT sid, seq FROM search_events
     WHERE to_tsvector('simple', text) @@ phraseto_tsquery('simple', $1) AND ($2::bigint IS NULL OR sid < $2)
       AND ($4::text IS NULL OR sid IN (SELECT sid FROM search_sessions WHERE cwd = $4))
     ORDER BY sid DESC, seq DESC LIMIT $3`,
    [term, upperSid, size, cwd],
  );
  return rows.map((r) => [Number(r.sid), Number(r.seq)]);
}

describe.skipIf(noPostgres)('the search window, read bucket by bucket', () => {
  let db: TestDatabase;
  let pool: pg.Pool;
  beforeAll(async () => {
    db = await createTestDatabase('strand_bucket');
    pool = new pg.Pool({ connectionString: db.url, max: 2 });
    await prepareSearchSchema(pool);
  });
  afterAll(async () => {
    await pool.end();
    await db.drop();
  });

  it('returns exactly the newest matching rows below the cursor, whatever the buckets hold', async () => {
    // Sessions at sids across seven buckets, with their events' words drawn; a word or phrase that
    // is rare (one event in the highest bucket, one in the lowest) reaches the walk's read-the-rest
    // step. A phrase is looked up by its pairs.
    const sessions = fc.uniqueArray(
      fc.record({
        sid: fc.integer({ min: 1, max: 7 * BUCKET - 1 }),
        cwd: fc.constantFrom('/p/one', '/p/two'),
        events: fc.array(fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }), {
          minLength: 1,
          maxLength: 4,
        }),
      }),
      { minLength: 1, maxLength: 40, selector: (s) => s.sid },
    );
    await fc.assert(
      fc.asyncProperty(
        sessions,
        fc.oneof(
          fc.constantFrom(...WORDS, 'nowhere'),
          fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...WORDS)).map((pair) => pair.join(' ')),
        ),
        fc.option(fc.integer({ min: 1, max: 7 * BUCKET }), { nil: null }),
        fc.integer({ min: 1, max: 12 }),
        fc.constantFrom(null, '/p/one'),
        async (drawn, term, upperSid, size, cwd) => {
          const client = await pool.connect();
          try {
            await client.query('BEGIN');
            for (const session of drawn) {
              await client.query(
                `INSERT INTO search_sessions (sid, session_id, cut, durable_cut, own_from, cwd)
                 OVERRIDING SYSTEM VALUE VALUES ($1, $2, 0, 0, 0, $3)`,
                [session.sid, `s${session.sid}`, session.cwd],
              );
              for (const [seq, words] of session.events.entries())
                await client.query(
                  `INSERT INTO search_events (sid, seq, text, tsv) VALUES ($1, $2, $3, strand_search_tsv($3))`,
                  [session.sid, seq, words.join(' ')],
                );
            }
            const tsquery = (await client.query<{ q: string }>(tsquerySql(1), [term])).rows[0]!.q;
            const filter = cwd === null ? undefined : { cwd, projectName: null, harness: null };
            const walked = (await matchWindow(client, tsquery, upperSid, size, filter)).map(([sid, seq]) => [
              sid,
              seq,
            ]);
            expect(walked).toEqual(await reference(client, term, upperSid, size, cwd));
          } finally {
            await client.query('ROLLBACK');
            client.release();
          }
        },
      ),
      { numRuns: 60, seed: 20_261_206 },
    );
  });
});
