import type { ProjectionRegistry } from '@strand/projection';
import { ProjectionCache, ProjectionCacheError } from '@strand/projection-cache';
import { silentLogger, type Logger } from '@strand/session';
import { SchemaVersionError } from '../schema-versions.js';
import { DEFAULT_MIRROR_BOUNDS, type MirrorBounds } from './mirror.js';
import { PostgresCacheRowStore } from './postgres-row-store.js';

export interface OpenPostgresProjectionCacheOptions {
  /** A `postgres://…` connection string. */
  readonly url: string;
  readonly registry: ProjectionRegistry;
  /** Where misses and write-behind failures are reported (default: silent). */
  readonly logger?: Logger;
  /**
   * Wait before the first attempt to reconnect the listening connection, doubling per failed
   * attempt up to `max` (default 100 ms, 5 s). Every reconnection reloads the sessions held.
   */
  readonly reconnectBackoffMs?: { readonly first: number; readonly max: number };
  /**
   * How much of the rows each process holds in memory (default `DEFAULT_MIRROR_BOUNDS`: 20,000
   * sessions, 64 MiB): the sessions read lately, the least recently used evicted.
   */
  readonly mirror?: Partial<MirrorBounds>;
}

/**
 * A `ProjectionCache` whose rows live in PostgreSQL, shared by every host on the database. Reads
 * and writes keep the synchronous `ProjectionCache` API (served from a bounded in-process mirror of
 * the sessions read lately, loaded by `prefetch` or after a miss; written behind); `drain` and `closeAsync` are the asynchronous edges a host awaits at shutdown and tests
 * await before looking at the database.
 */
export class PostgresProjectionCache extends ProjectionCache {
  readonly #store: PostgresCacheRowStore;

  /** Use `openPostgresProjectionCache`. */
  constructor(store: PostgresCacheRowStore, registry: ProjectionRegistry, logger: Logger) {
    super(store, registry, { logger });
    this.#store = store;
  }

  /** Resolves once every `put`/`forget` made so far is committed (or its failure logged). */
  drain(): Promise<void> {
    return this.#store.drain();
  }

  /** Stops serving, writes what is queued, stops listening and closes the connections. Idempotent. */
  closeAsync(): Promise<void> {
    return this.#store.closeAsync();
  }

  /** Session ids whose rows this process holds in memory (those read or written lately). */
  get mirroredSessions(): number {
    return this.#store.mirroredSessions;
  }

  /** The estimated bytes of the rows this process holds in memory. */
  get mirroredBytes(): number {
    return this.#store.mirroredBytes;
  }
}

/**
 * Opens the projection cache on PostgreSQL: creates its table on first use and listens for other
 * hosts' writes. No row is loaded until a session is read. Rejects with `PROJECTION_CACHE_SCHEMA_UNSUPPORTED`
 * when the database holds a newer cache schema, `PROJECTION_CACHE_OPEN_FAILED` otherwise.
 */
export async function openPostgresProjectionCache(
  options: OpenPostgresProjectionCacheOptions,
): Promise<PostgresProjectionCache> {
  const logger = options.logger ?? silentLogger;
  const backoff = options.reconnectBackoffMs;
  if (
    backoff !== undefined &&
    !(
      Number.isFinite(backoff.first) &&
      Number.isFinite(backoff.max) &&
      backoff.first > 0 &&
      backoff.max >= backoff.first
    )
  ) {
    throw new ProjectionCacheError(
      'PROJECTION_CACHE_OPEN_FAILED',
      `reconnectBackoffMs must hold finite numbers 0 < first ≤ max, got ${JSON.stringify(backoff)}`,
    );
  }
  const mirrorBounds = { ...DEFAULT_MIRROR_BOUNDS, ...options.mirror };
  if (
    !(
      Number.isSafeInteger(mirrorBounds.maxSessions) &&
      mirrorBounds.maxSessions > 0 &&
      Number.isSafeInteger(mirrorBounds.maxBytes) &&
      mirrorBounds.maxBytes > 0
    )
  ) {
    throw new ProjectionCacheError(
      'PROJECTION_CACHE_OPEN_FAILED',
      `mirror bounds must be positive integers, got ${JSON.stringify(options.mirror)}`,
    );
  }
  let store: PostgresCacheRowStore;
  try {
    store = await PostgresCacheRowStore.open({
      url: options.url,
      logger,
      reconnectBackoffMs: options.reconnectBackoffMs,
      mirrorBounds,
    });
  } catch (error) {
    if (error instanceof SchemaVersionError) {
      throw new ProjectionCacheError(
        'PROJECTION_CACHE_SCHEMA_UNSUPPORTED',
        `projection cache schema ${error.found} in PostgreSQL is newer than this build reads (${error.supported})`,
        { cause: error },
      );
    }
    // The connection string may carry a password: it stays out of the message.
    throw new ProjectionCacheError(
      'PROJECTION_CACHE_OPEN_FAILED',
      'cannot open the projection cache on PostgreSQL',
      {
        cause: error,
      },
    );
  }
  return new PostgresProjectionCache(store, options.registry, logger);
}
