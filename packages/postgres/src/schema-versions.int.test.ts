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
});
