import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, noPostgres, type TestDatabase } from './testing/index.js';
import { ensureSchema, SchemaVersionError } from './schema-versions.js';

describe.skipIf(noPostgres)('ensureSchema', () => {
  let db: TestDatabase | undefined;
  afterEach(async () => {
    await db?.drop();
    db = undefined;
  });

  it('creates a component once, even when several hosts start together, and refuses a newer schema', async () => {
    db = await createTestDatabase();
    const pool = new pg.Pool({ connectionString: db.url, max: 4 });
    try {
      const ddl = 'CREATE TABLE probe (n integer)';
      // Four concurrent "hosts": the advisory lock lets exactly one run the DDL (a second run would throw).
      await Promise.all(
        [0, 1, 2, 3].map(async () => {
          const client = await pool.connect();
          try {
            await ensureSchema(client, 'probe', 1, ddl);
          } finally {
            client.release();
          }
        }),
      );
      await pool.query("UPDATE strand_schema SET version = 7 WHERE component = 'probe'");
      const client = await pool.connect();
      try {
        const refused = await ensureSchema(client, 'probe', 1, ddl).catch((e: unknown) => e);
        expect(refused).toBeInstanceOf(SchemaVersionError);
        expect((refused as SchemaVersionError).code).toBe('POSTGRES_SCHEMA_NEWER');
        expect((refused as SchemaVersionError).found).toBe(7);
      } finally {
        client.release();
      }
    } finally {
      await pool.end();
    }
  });

  it('migrates an older schema one step at a time, once, even when several hosts start together', async () => {
    db = await createTestDatabase();
    const pool = new pg.Pool({ connectionString: db.url, max: 4 });
    const run = async (version: number, migrations: Record<number, string>): Promise<void> => {
      const client = await pool.connect();
      try {
        await ensureSchema(client, 'probe', version, 'CREATE TABLE probe (n integer)', migrations);
      } finally {
        client.release();
      }
    };
    try {
      await run(1, {});
      await pool.query('INSERT INTO probe (n) VALUES (1)');
      // Each step inserts a row: run twice (two hosts both migrating), a step would insert twice.
      const steps = {
        2: 'ALTER TABLE probe ADD COLUMN m integer; INSERT INTO probe (n, m) VALUES (2, 2)',
        3: 'INSERT INTO probe (n, m) VALUES (3, 3)',
      };
      await Promise.all([0, 1, 2, 3].map(() => run(3, steps)));
      const rows = await pool.query<{ n: number; m: number | null }>('SELECT n, m FROM probe ORDER BY n');
      expect(rows.rows).toEqual([
        { n: 1, m: null },
        { n: 2, m: 2 },
        { n: 3, m: 3 },
      ]);
      const version = await pool.query<{ version: number }>(
        "SELECT version FROM strand_schema WHERE component = 'probe'",
      );
      expect(version.rows[0]?.version).toBe(3);
      // A missing step changes nothing, not even the steps before it (one transaction).
      await expect(run(5, { 4: 'DROP TABLE probe' })).rejects.toThrow(
        /no migration from schema version 4 to 5/,
      );
      expect((await pool.query('SELECT n FROM probe')).rowCount).toBe(3);
    } finally {
      await pool.end();
    }
  });
});
