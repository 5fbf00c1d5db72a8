import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openJsonlPersistence, SessionPreparations, type JsonlSessionPersistence } from '@strand/persistence';
import { BUILT_IN_UNITS, ProjectionRegistry } from '@strand/projection';
import { ProjectionCache } from '@strand/projection-cache';
import { SessionStore, silentLogger, type Session, type SessionEventInput } from '@strand/session';
import { turn, writeStoredSession } from '@strand/test-support';
import { SessionQuery, type ResolutionHooks } from '../session-query.js';

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

/**
 * Built from the packages query sits on, the way `@strand/stack` composes them (not through it:
 * the stack depends on query, and a test import back up would be a loop): JSONL + zstd files in a
 * temp folder, the built-in units, the projection cache in memory.
 */
export async function queryFixture(options: { withCache?: boolean } = {}): Promise<QueryFixture> {
  const hooks: ResolutionHooks = {};
  const root = mkdtempSync(path.join(tmpdir(), 'strand-query-'));
  const persistence = await openJsonlPersistence({ root });
  const registry = new ProjectionRegistry({ units: BUILT_IN_UNITS, reportError: () => undefined });
  const cache = ProjectionCache.open({ path: ':memory:', registry });
  const preparations = new SessionPreparations(persistence);
  const store = new SessionStore({ logger: silentLogger });
  const query = new SessionQuery({
    persistence,
    preparations,
    store,
    registry,
    hooks,
    ...(options.withCache === false ? {} : { cache }),
  });
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
    async close() {
      try {
        query.close();
        cache.close();
        await persistence.close();
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    },
  };
}
