import type { JsonlSessionPersistence, SessionPreparations } from '@strand/persistence';
import type { ProjectionRegistry } from '@strand/projection';
import type { ProjectionCache } from '@strand/projection-cache';
import { openTempStack, turn, writeStoredSession } from '@strand/stack/testing';
import type { Session, SessionEventInput, SessionStore } from '@strand/session';
import type { ResolutionHooks, SessionQuery } from '../session-query.js';

/** A real query stack over temp files, for the query package's integration tests. */
export interface QueryFixture {
  readonly root: string;
  readonly persistence: JsonlSessionPersistence;
  readonly preparations: SessionPreparations;
  readonly store: SessionStore;
  readonly registry: ProjectionRegistry;
  readonly cache: ProjectionCache;
  readonly query: SessionQuery;
  readonly hooks: ResolutionHooks;
  /** Writes a stored (cold) session with `turns` closed turns and a title. */
  storedSession(id: string, turns: number, extra?: readonly SessionEventInput[]): Promise<Session>;
  close(): Promise<void>;
}

export { turn };

export async function queryFixture(options: { withCache?: boolean } = {}): Promise<QueryFixture> {
  const hooks: ResolutionHooks = {};
  const stack = await openTempStack({
    prefix: 'strand-query',
    queryHooks: hooks,
    ...(options.withCache === false ? { queryUsesCache: false } : {}),
  });
  const { root, jsonl: persistence, preparations, store, registry, cache, query } = stack;
  return {
    root,
    persistence,
    preparations,
    store,
    registry,
    cache,
    query,
    hooks,
    storedSession: (id, turns, extra = []) => writeStoredSession(persistence, id, turns, { extra }),
    close: () => stack.close(),
  };
}
