import { defined } from '@strand/session';
import path from 'node:path';
import { openJsonlPersistence, openSqlitePersistence, type SessionPersistence } from '@strand/persistence';
import type { ProjectionRegistry } from '@strand/projection';
import { ProjectionCache } from '@strand/projection-cache';
import type { Logger } from '@strand/session';
import { SessionSearchIndex } from '@strand/search';
import type { StackStores } from './base-stack.js';
import { sessionFacets } from './session-facets.js';
import { titleLabeler } from './title-label.js';

/**
 * The files of a data folder's stores. One description: the runtime opens them, `strand doctor`
 * checks and rebuilds them, and nothing else spells these names.
 */
export const STORE_FILES = {
  /** The SQLite persistence backend's one database (the JSONL backend keeps a file per session). */
  sqliteSessions: 'strand.db',
  projectionCache: 'projection-cache.db',
  searchIndex: 'search.db',
} as const;

export type FilesBackend = 'jsonl' | 'sqlite';

export interface OpenFileStoresOptions {
  readonly dataDir: string;
  readonly backend: FilesBackend;
  readonly registry: ProjectionRegistry;
  /** JSONL: delete temp files of interrupted writes on open — only a process holding the folder may. */
  readonly sweepTemp?: boolean;
  /** `memory`: cache and search live in memory (fixtures); default: their files in `dataDir`. */
  readonly derived?: 'files' | 'memory';
  readonly logger?: Logger;
}

/** Opens the data folder's persistence, projection cache and search index. */
export async function openFileStores(options: OpenFileStoresOptions): Promise<StackStores> {
  const persistence: SessionPersistence =
    options.backend === 'sqlite'
      ? openSqlitePersistence({ path: path.join(options.dataDir, STORE_FILES.sqliteSessions) })
      : await openJsonlPersistence({ root: options.dataDir, sweepTemp: options.sweepTemp ?? true });
  try {
    return openDerivedStores(options, persistence);
  } catch (error) {
    await persistence.close().catch(() => undefined);
    throw error;
  }
}

/**
 * Opens the derived stores (projection cache, search index) of a data folder beside a persistence
 * already open; the stores' `close` closes that persistence too.
 */
export function openDerivedStores(
  options: Omit<OpenFileStoresOptions, 'backend' | 'sweepTemp'>,
  persistence: SessionPersistence,
): StackStores {
  const derivedPath = (name: string): string =>
    options.derived === 'memory' ? ':memory:' : path.join(options.dataDir, name);
  const cache = ProjectionCache.open({
    path: derivedPath(STORE_FILES.projectionCache),
    registry: options.registry,
    ...defined({ logger: options.logger }),
  });
  try {
    // Titles are searchable and a title match ranks first (the label is the title unit's); a
    // search narrows by project and harness inside the index (the facets are the header's).
    const search = SessionSearchIndex.open({
      path: derivedPath(STORE_FILES.searchIndex),
      labeler: titleLabeler,
      facets: sessionFacets,
    });
    return {
      persistence,
      cache,
      search,
      async close() {
        search.close();
        cache.close();
        await persistence.close();
      },
    };
  } catch (error) {
    cache.close();
    throw error;
  }
}
