import { describe } from 'vitest';
import { readBehaviour } from './contract-reads.js';
import { writeBehaviour } from './contract-writes.js';
import { cacheRunner, type OpenCacheUnderTest } from './harness.js';

/**
 * The behaviour every `ProjectionCache` must show whatever its `CacheRowStore` (packages/projection-cache/README.md), as
 * one vitest `describe` block. `open` is called once per test with the registry and logger the
 * test reads with, and must return a cache over empty storage; see `ProjectionCacheUnderTest` for
 * `settle`, `reopen` and `overwriteState`.
 */
export function projectionCacheContract(name: string, open: OpenCacheUnderTest): void {
  const withCache = cacheRunner(open);
  describe(`ProjectionCache contract: ${name}`, () => {
    readBehaviour(withCache);
    writeBehaviour(withCache);
  });
}
