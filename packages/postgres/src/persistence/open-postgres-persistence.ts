import pg from 'pg';
import { PersistenceError } from '@strand/persistence';
import { ensureSchema } from '../schema-versions.js';
import { PostgresPersistenceConfigError, sqlState, toPersistenceError } from './persistence-errors.js';
import { PostgresPersistence } from './postgres-persistence.js';
import {
  PERSISTENCE_COMPONENT,
  PERSISTENCE_DDL,
  PERSISTENCE_MIGRATIONS,
  PERSISTENCE_SCHEMA_VERSION,
} from './schema.js';
import { withCheckedOutClient } from './checked-out-client.js';

export interface PostgresPersistenceOptions {
  /** `postgres://…` of the shared database; its role must be able to create tables once. */
  readonly url: string;
  /** Connections in this store's pool (default 4): appends to different sessions run in parallel. */
  readonly poolSize?: number;
  /** Shown in `pg_stat_activity` (default `strand-persistence`). */
  readonly applicationName?: string;
}

const DEFAULT_POOL_SIZE = 4;

/** SQLSTATE of `CREATE TABLE` finding the name taken (a table that is not Strand's). */
const DUPLICATE_TABLE = '42P07';

/**
 * Connects to `options.url`, creates the persistence tables if the database has none (once, under
 * `ensureSchema`'s lock, however many hosts start together) and refuses a database whose
 * persistence schema is newer than this build (PERSISTENCE_FORMAT_UNSUPPORTED). A server that
 * cannot be reached is PERSISTENCE_IO.
 */
export async function openPostgresPersistence(
  options: PostgresPersistenceOptions,
): Promise<PostgresPersistence> {
  const poolSize = options.poolSize ?? DEFAULT_POOL_SIZE;
  if (!Number.isSafeInteger(poolSize) || poolSize < 1) {
    throw new PostgresPersistenceConfigError(`poolSize must be a positive integer, got ${String(poolSize)}`);
  }
  const pool = new pg.Pool({
    connectionString: options.url,
    max: poolSize,
    application_name: options.applicationName ?? 'strand-persistence',
  });
  // An idle pooled connection that dies (server restart, a dropped database) is reported here and
  // removed by the pool; the next query opens a fresh one or fails with a typed error. Without a
  // listener, Node would treat the event as an uncaught error and exit.
  pool.on('error', () => undefined);
  try {
    await createSchema(pool);
  } catch (error) {
    await pool.end().catch(() => undefined);
    if (sqlState(error) === DUPLICATE_TABLE) {
      throw new PersistenceError(
        'PERSISTENCE_FORMAT_UNSUPPORTED',
        'the database holds a strand_* table that its strand_schema does not account for: not a Strand database',
        { cause: error },
      );
    }
    throw toPersistenceError(error, 'opening the PostgreSQL session store');
  }
  return new PostgresPersistence(pool);
}

async function createSchema(pool: pg.Pool): Promise<void> {
  await withCheckedOutClient(pool, (client) =>
    ensureSchema(
      client,
      PERSISTENCE_COMPONENT,
      PERSISTENCE_SCHEMA_VERSION,
      PERSISTENCE_DDL,
      PERSISTENCE_MIGRATIONS,
    ),
  );
}
