/**
 * Vitest global setup: prints the run's seed once at the top of the run, in the main process before
 * any worker starts. `vitest.config.ts` has already fixed it (drawn once and written back to
 * `STRAND_TEST_SEED`, so every worker and every process a test spawns inherits it) and shuffles the
 * test order with it; should the order come from another seed (`--sequence.seed` on the command
 * line), that is said too, since then the test seed alone does not replay the order.
 */
import type { TestProject } from 'vitest/node';
import { replayHint, testSeed } from './test-seed.js';

export default function setup(project: TestProject): void {
  const seed = testSeed();
  const { shuffle, seed: orderSeed } = project.config.sequence;
  const order = !shuffle
    ? 'the tests run in file order'
    : orderSeed === seed
      ? 'the test order is shuffled with it'
      : `the test order is shuffled with --sequence.seed=${orderSeed}, not this seed`;
  console.info(`test seed ${seed}: ${order} (${replayHint(seed)})`);
}
