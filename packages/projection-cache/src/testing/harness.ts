import { BUILT_IN_UNITS, ProjectionRegistry } from '@strand/projection';
import type { ProjectionCache } from '../cache.js';
import type { Logger } from '@strand/session';
import { recordingLogger, strictCounter, type RecordingLogger } from './fixtures.js';

/** What a backend needs to open a cache for the contract suite. */
export interface CacheUnderTestDeps {
  readonly registry: ProjectionRegistry;
  readonly logger: Logger;
}

/** One cache instance handed to a contract test over fresh, empty storage; disposed when the test ends. */
export interface ProjectionCacheUnderTest {
  readonly cache: ProjectionCache;
  /** Resolves once every row put so far is where a newly opened instance reads it. */
  settle(): Promise<void>;
  /** Settles, closes the current instance and opens the same storage again (a process restart). */
  reopen(): Promise<ProjectionCache>;
  /**
   * Replaces the stored state text of a row behind the cache's back (another writer, a damaged
   * disk) and returns the instance to read with from now on: the same one, or one opened again
   * when the engine only sees outside changes on a reload.
   */
  overwriteState(sessionId: string, key: string, stateText: string): Promise<ProjectionCache>;
  /** Closes whichever instance is current (it may be closed already) and deletes the storage. */
  dispose(): Promise<void>;
}

export type OpenCacheUnderTest = (deps: CacheUnderTestDeps) => Promise<ProjectionCacheUnderTest>;

/** What a contract test works with: the current instance, its registry and logger, and the hooks. */
export interface ContractCache {
  cache: ProjectionCache;
  readonly registry: ProjectionRegistry;
  readonly logger: RecordingLogger;
  settle(): Promise<void>;
  reopen(): Promise<ProjectionCache>;
  overwriteState(sessionId: string, key: string, stateText: string): Promise<ProjectionCache>;
}

export type WithCache = (body: (t: ContractCache) => Promise<void> | void) => Promise<void>;

/** Runs one test body against a fresh cache and disposes it afterwards, whatever the outcome. */
export function cacheRunner(open: OpenCacheUnderTest): WithCache {
  return async (body) => {
    const registry = new ProjectionRegistry({ units: [...BUILT_IN_UNITS, strictCounter] });
    const logger = recordingLogger();
    const target = await open({ registry, logger });
    const t: ContractCache = {
      cache: target.cache,
      registry,
      logger,
      settle: () => target.settle(),
      reopen: async () => (t.cache = await target.reopen()),
      overwriteState: async (sessionId, key, stateText) =>
        (t.cache = await target.overwriteState(sessionId, key, stateText)),
    };
    try {
      await body(t);
    } finally {
      await target.dispose();
    }
  };
}
