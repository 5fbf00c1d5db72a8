import { defined } from '@strand/session';
import path from 'node:path';
import {
  AppendFeed,
  SessionLeases,
  openPostgresPersistence,
  openPostgresProjectionCache,
  openPostgresSearchIndex,
  PostgresShareGrants,
} from '@strand/postgres';
import type { ProjectionRegistry } from '@strand/projection';
import type { SearchIndex } from '@strand/search';
import { openFileStores, sessionFacets, titleLabeler, type StackStores } from '@strand/stack';
import { postgresPoolSize, type ResolvedRuntimeOptions } from './runtime-options.js';

/** The search index of either store (SQLite FTS5 file, or PostgreSQL full-text search). */
export type RuntimeSearchIndex = SearchIndex;

/** The durable parts of one runtime: files + SQLite, or one PostgreSQL database shared by hosts. */
export interface RuntimeStores extends StackStores {
  /** PostgreSQL only: session leases and the cross-host append feed. */
  readonly coordination?: { readonly leases: SessionLeases; readonly feed: AppendFeed };
  /** PostgreSQL only: the share grants' table (the files backends keep them in the data folder). */
  readonly shares?: PostgresShareGrants;
}

export async function openStores(
  options: Pick<
    ResolvedRuntimeOptions,
    'store' | 'dataDir' | 'sweepTemp' | 'coldReadConcurrency' | 'leaseTtlMs' | 'logger'
  >,
  registry: ProjectionRegistry,
): Promise<RuntimeStores> {
  return options.store.kind === 'postgres'
    ? openPostgresStores(options.store.url, options, registry)
    : openFileStores({
        dataDir: path.resolve(options.dataDir),
        backend: options.store.backend,
        registry,
        sweepTemp: options.sweepTemp,
        logger: options.logger,
      });
}

async function openPostgresStores(
  url: string,
  options: Pick<ResolvedRuntimeOptions, 'coldReadConcurrency' | 'leaseTtlMs' | 'logger'>,
  registry: ProjectionRegistry,
): Promise<RuntimeStores> {
  // Opened one after another: a failure closes what was already open, in reverse.
  const opened: (() => Promise<void>)[] = [];
  try {
    const persistence = await openPostgresPersistence({
      url,
      poolSize: postgresPoolSize(options.coldReadConcurrency),
    });
    opened.push(() => persistence.close());
    const cache = await openPostgresProjectionCache({ url, registry, logger: options.logger });
    opened.push(async () => {
      await cache.drain();
      await cache.closeAsync();
    });
    // Titles are searchable and a title match ranks first, and facets narrow a search, as on
    // SQLite (openDerivedStores).
    const search = await openPostgresSearchIndex({ url, labeler: titleLabeler, facets: sessionFacets });
    opened.push(() => search.close());
    const leases = await SessionLeases.open({
      url,
      logger: options.logger,
      ...defined({ ttlMs: options.leaseTtlMs }),
    });
    opened.push(() => leases.close());
    const feed = await AppendFeed.open({ url, logger: options.logger });
    opened.push(() => feed.close());
    const shares = await PostgresShareGrants.open({ url, logger: options.logger });
    opened.push(() => shares.close());
    return {
      persistence,
      cache,
      search,
      coordination: { leases, feed },
      shares,
      close: () => closeInReverse(opened),
    };
  } catch (error) {
    await closeInReverse(opened).catch(() => undefined);
    throw error;
  }
}

async function closeInReverse(closers: readonly (() => Promise<void>)[]): Promise<void> {
  let failure: unknown;
  for (const close of [...closers].reverse()) {
    try {
      await close();
    } catch (error) {
      failure ??= error;
    }
  }
  if (failure !== undefined)
    throw failure instanceof Error ? failure : new Error('closing a store failed', { cause: failure });
}
