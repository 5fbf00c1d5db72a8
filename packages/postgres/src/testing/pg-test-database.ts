import pg from 'pg';
import { randomBytes } from 'node:crypto';

/**
 * The server PostgreSQL tests run against: `STRAND_TEST_PG_URL` (a role allowed to CREATE
 * DATABASE). `.ci/run` starts a local server and sets it, together with `STRAND_REQUIRE_PG=1`,
 * which turns a missing server into a failure instead of a skip.
 */
export const testPgUrl: string | undefined = process.env.STRAND_TEST_PG_URL || undefined;

if (testPgUrl === undefined && process.env.STRAND_REQUIRE_PG === '1') {
  throw new Error('STRAND_REQUIRE_PG=1 but STRAND_TEST_PG_URL is not set');
}

/** For `describe.skipIf(noPostgres)`: true only when no server is configured and none is required. */
export const noPostgres = testPgUrl === undefined;

export interface TestDatabase {
  /** Connection string of a fresh, empty database. */
  readonly url: string;
  /** Drops the database (terminating leftover connections). */
  drop(): Promise<void>;
}

/** Creates a fresh database with a unique name on the test server. */
export async function createTestDatabase(prefix = 'strand_test'): Promise<TestDatabase> {
  if (testPgUrl === undefined) throw new Error('no PostgreSQL test server: set STRAND_TEST_PG_URL');
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: testPgUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(testPgUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: testPgUrl });
      await client.connect();
      try {
        // `pool.end()` resolves once its clients are asked to close, not once their backends have
        // gone: a FORCE drop then terminates a backend whose client is still ending, and that
        // client's 57P01 error surfaces as an uncaught exception in the test that owned it. So wait
        // (bounded) for the database's own connections to leave; FORCE only ends leaked ones.
        for (let attempt = 0; attempt < 100; attempt += 1) {
          const open = await client.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1',
            [name],
          );
          if (open.rows[0]?.n === 0) break;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/** Runs SQL on its own short-lived connection: another host, an operator, a failing server. */
export async function sqlOnce(url: string, text: string, values: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end();
  }
}
