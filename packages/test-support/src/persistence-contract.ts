import { describe } from 'vitest';
import { storeRunner, type PersistenceUnderTest } from './persistence-contract-harness.js';
import { lifecycleBehaviour } from './persistence-contract-lifecycle.js';
import { changeMarkerBehaviour } from './persistence-contract-marker.js';
import { readBehaviour } from './persistence-contract-reads.js';
import { scanBehaviour } from './persistence-contract-scan.js';
import { writeBehaviour } from './persistence-contract-writes.js';

export type { PersistenceUnderTest };

/**
 * The behaviour every `SessionPersistence` backend must show (packages/persistence/README.md), as one vitest `describe` block. Logs are written through a real
 * `Session`, so seqs, validation and freezing are the production ones. `open` is called once per
 * test and must return empty storage; see `PersistenceUnderTest` for `reopen` and `dispose`.
 */
export function persistenceContract(name: string, open: () => Promise<PersistenceUnderTest>): void {
  const withStore = storeRunner(open);
  describe(`SessionPersistence contract: ${name}`, () => {
    writeBehaviour(withStore);
    readBehaviour(withStore);
    scanBehaviour(withStore);
    lifecycleBehaviour(withStore);
    changeMarkerBehaviour(withStore);
  });
}
