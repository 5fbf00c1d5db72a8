/**
 * Vitest global setup: draws the run's seed once in the main process, before any worker starts,
 * so every worker (and every process a test spawns) inherits the same `STRAND_TEST_SEED`, and
 * prints it once at the top of the run.
 */
import { replayHint, testSeed } from './test-seed.js';

export default function setup(): void {
  const seed = testSeed();
  console.info(`test seed ${seed} (${replayHint(seed)})`);
}
