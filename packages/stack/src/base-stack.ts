import {
  SessionPreparations,
  type SessionPersistence,
  type SessionPreparationsOptions,
} from '@strand/persistence';
import type { ProjectionRegistry } from '@strand/projection';
import { CacheWritePolicy, type ProjectionCache } from '@strand/projection-cache';
import { SessionQuery, type ResolutionHooks } from '@strand/query';
import type { SearchIndex } from '@strand/search';
import { SessionStore, silentLogger, type Logger, defined } from '@strand/session';
import { listingPersistence } from './listing-persistence.js';

/**
 * The durable parts a stack is built over: one session persistence, the projection cache and the
 * search index — the data folder's files and SQLite databases, or one PostgreSQL database.
 */
export interface StackStores {
  readonly persistence: SessionPersistence;
  readonly cache: ProjectionCache;
  readonly search: SearchIndex;
  /** Writes what is queued and closes every store. */
  close(): Promise<void>;
}

export interface BaseStackOptions {
  readonly stores: StackStores;
  /** The unit set every fold of this stack uses (the runtime passes the built-in + subagent units). */
  readonly registry: ProjectionRegistry;
  /**
   * Wraps the stores' persistence before anything uses it: instrumentation and fault injection.
   * Every layer above — preparations, query, write policy — sees only the wrapped one (itself
   * wrapped once more so creates and deletes keep the list index in step: `listingPersistence`).
   */
  readonly wrapPersistence?: (persistence: SessionPersistence) => SessionPersistence;
  /** Where the live store and the cache write policy report contained failures (default: silent). */
  readonly logger?: Logger;
  /** Resolution hooks of the query service (tests observe races through them). */
  readonly queryHooks?: ResolutionHooks;
  /** `false`: the query reads without the projection cache (its rows are still written). */
  readonly queryUsesCache?: boolean;
  /** The preparation layer's options (benches set `capacity: 0` so every cold read decodes). */
  readonly preparations?: SessionPreparationsOptions;
}

/**
 * The base stack: everything below subagents and agents, wired once — persistence, the
 * preparation layer, the live session store, the projection registry, the projection cache and its
 * write policy, the query service and the search index. The runtime puts agents, leases and the
 * host on top; the lower packages' test fixtures use it as it is.
 */
export interface BaseStack {
  readonly persistence: SessionPersistence;
  readonly preparations: SessionPreparations;
  readonly store: SessionStore;
  readonly registry: ProjectionRegistry;
  readonly cache: ProjectionCache;
  /** Checkpoints the cache rows of tracked live sessions (turn end, detach, throttled between). */
  readonly cacheWrites: CacheWritePolicy;
  readonly query: SessionQuery;
  readonly search: SearchIndex;
  /** Drains the cache writes, then closes the query and the stores (after agents detached). */
  close(): Promise<void>;
}

export function composeBaseStack(options: BaseStackOptions): BaseStack {
  const { stores, registry } = options;
  const { cache, search } = stores;
  const logger = options.logger ?? silentLogger;
  const persistence = listingPersistence(
    options.wrapPersistence?.(stores.persistence) ?? stores.persistence,
    cache,
    logger,
  );
  const preparations = new SessionPreparations(persistence, options.preparations);
  const store = new SessionStore({ logger });
  const cacheWrites = new CacheWritePolicy({
    registry,
    cache,
    // A row never claims a cut the log has not durably stored.
    flush: () => persistence.flush(),
    logger,
  });
  const query = new SessionQuery({
    persistence,
    preparations,
    store,
    registry,
    ...(options.queryUsesCache === false ? {} : { cache }),
    ...defined({ hooks: options.queryHooks }),
  });
  return {
    persistence,
    preparations,
    store,
    registry,
    cache,
    cacheWrites,
    query,
    search,
    async close() {
      await cacheWrites.drain();
      cacheWrites.dispose();
      query.close();
      await stores.close();
    },
  };
}
