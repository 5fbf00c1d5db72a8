import type { Pool, PoolClient } from 'pg';
import { POSTGRES_ERRORS } from '@strand/session/errors';

/**
 * Every PostgreSQL component (persistence, cache, search, coordination, share grants) owns its
 * own tables and one row here: `component → version`. A component creates its tables when the row
 * is absent and refuses a database whose row is newer than it understands — the same rule the
 * SQLite backends apply with `user_version`.
 */
export class SchemaVersionError extends POSTGRES_ERRORS.codeClass(
  'POSTGRES_SCHEMA_NEWER',
  'SchemaVersionError',
) {
  constructor(
    readonly component: string,
    readonly found: number,
    readonly supported: number,
  ) {
    super(
      `the database's ${component} schema is version ${found}; this Strand understands up to ${supported} — upgrade Strand`,
    );
  }

  protected override jsonFields(): { component: string; found: number; supported: number } {
    return { component: this.component, found: this.found, supported: this.supported };
  }
}

/**
 * The statements that take a component's tables from version `v - 1` to `v`, keyed `v`. Each runs
 * in the same transaction (and under the same lock) as the version row's update.
 */
export type SchemaMigrations = Readonly<Record<number, string>>;

/**
 * Runs `ddl` once per database for `component` at `version` (a database without the component),
 * or the `migrations` from the version found up to `version` (an older one), under an advisory
 * lock so several hosts starting together never race the migration: exactly one runs it, the
 * others then find the new version. An older version with a step missing from `migrations` is a
 * bug of the component: it throws and changes nothing.
 */
export async function ensureSchema(
  client: PoolClient,
  component: string,
  version: number,
  ddl: string,
  migrations: SchemaMigrations = {},
): Promise<void> {
  await client.query('BEGIN');
  try {
    // One lock key for all components: migrations are rare and tiny.
    await client.query("SELECT pg_advisory_xact_lock(hashtext('strand-schema'))");
    await client.query(
      'CREATE TABLE IF NOT EXISTS strand_schema (component text PRIMARY KEY, version integer NOT NULL)',
    );
    const found = await client.query<{ version: number }>(
      'SELECT version FROM strand_schema WHERE component = $1',
      [component],
    );
    const current = found.rows[0]?.version;
    if (current !== undefined && current > version) throw new SchemaVersionError(component, current, version);
    if (current === undefined) {
      await client.query(ddl);
      await client.query('INSERT INTO strand_schema (component, version) VALUES ($1, $2)', [
        component,
        version,
      ]);
    } else if (current < version) {
      for (let step = current + 1; step <= version; step++) {
        const migration = migrations[step];
        if (migration === undefined)
          throw new Error(`${component}: no migration from schema version ${step - 1} to ${step}`);
        await client.query(migration);
      }
      await client.query('UPDATE strand_schema SET version = $2 WHERE component = $1', [component, version]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/** `ensureSchema` on a connection of `pool`, given back afterwards (a component's tables at open). */
export async function ensurePoolSchema(
  pool: Pool,
  component: string,
  version: number,
  ddl: string,
  migrations: SchemaMigrations = {},
): Promise<void> {
  const client = await pool.connect();
  try {
    await ensureSchema(client, component, version, ddl, migrations);
  } finally {
    client.release();
  }
}
