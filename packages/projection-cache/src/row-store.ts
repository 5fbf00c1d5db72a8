import type { ListIndexStore } from './list-index/list-index-store.js';
import type { ListIndexRow } from './list-index/list-row.js';

/**
 * One stored row, as an array (no per-row object on the hot list path): the projection key, the
 * unit's `stateVersion` when it was written, the row's own cut, and the state as JSON text.
 */
export type CacheRow = readonly [key: string, stateVersion: number, cut: number, state: string];

/** A row of one key with its identity: session id, incarnation, inherited cut, stateVersion, cut, state. */
export type KeyRow = readonly [
  sessionId: string,
  incarnation: string,
  inheritedCut: number,
  stateVersion: number,
  cut: number,
  state: string,
];

/**
 * Where a `ProjectionCache` keeps its rows: SQLite (`SqliteCacheRowStore`, the embedded default) or
 * another engine. A row's identity is (session id, incarnation, inherited cut); the store never
 * interprets keys, versions or states — misses, decoding and logging stay in `ProjectionCache`.
 *
 * Every operation but `prefetch` is synchronous because the cache's reads run on hot paths (one
 * per listed session); an engine that is asynchronous must serve from memory and write behind, and
 * may hold only some sessions in memory if it loads the others on `prefetch`.
 */
export interface CacheRowStore {
  /** False once closed: the cache then misses every read and refuses writes. */
  readonly isOpen: boolean;
  /** The rows of exactly this identity. May throw; the cache turns a failure into a miss. */
  read(sessionId: string, incarnation: string, inheritedCut: number): readonly CacheRow[];
  /**
   * Every stored row of one key, whatever its identity: a read over the whole corpus (usage
   * over 10,000 sessions) asks once instead of once per session. Optional: without it the cache
   * reads per identity. May throw; the cache then falls back to reading per identity.
   */
  readKey?(key: string): Iterable<KeyRow>;
  /**
   * Makes the rows of these session ids ready for the synchronous reads that follow (an engine
   * that holds only some sessions in memory loads the others). Optional: a store that reads
   * synchronously has nothing to do. Never rejects; a failed load leaves reads missing.
   */
  prefetch?(sessionIds: readonly string[]): Promise<void>;
  /**
   * In one step: drops the rows of every *other* identity of `sessionId`, then upserts `rows`
   * (unique keys) for this identity — except that a stored row never moves back to an older cut
   * of the same `stateVersion` (a slower writer elsewhere). With a `listRow` and a `listIndex`,
   * upserts that list row in the same step, so a list row is never ahead of its cache rows. May throw.
   */
  write(
    sessionId: string,
    incarnation: string,
    inheritedCut: number,
    rows: readonly CacheRow[],
    listRow?: ListIndexRow,
  ): void;
  /** Drops every row of `sessionId`; its list row (if any) keeps its header facts, its hints become unknown. May throw. */
  forget(sessionId: string): void;
  /**
   * Runs `work` (writes of many sessions) as one step of the engine, so a burst of writes — an
   * import's thousands of sessions — pays one commit, not one each. Optional: without it each
   * write is its own step. A throw from `work` undoes its writes and is rethrown.
   */
  batch?<T>(work: () => T): T;
  /** The list index kept beside the rows, when this store keeps one. */
  readonly listIndex?: ListIndexStore;
  /** Idempotent. */
  close(): void;
}
