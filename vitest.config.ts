import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { testSeed } from './packages/test-support/src/seed/test-seed.js';

// One seed per run: STRAND_TEST_SEED when set, otherwise a fresh one written back to the
// environment, so the global setup (which prints it), every worker and every process a test spawns
// read the same. It shuffles the order of the files and of the tests in each, and fast-check and
// every random choice a test makes derive from it: `STRAND_TEST_SEED=<n> npx vitest run` replays both.
const seed = testSeed();

export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts'],
    // Crash and contract suites spawn processes and fsync real files; give them room on a 2-core box.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // At least two files at once (vitest's default is one per core but one, so one on 2 cores):
    // most files spend their time waiting on fsync, child processes, Chromium, the real harnesses
    // or PostgreSQL, and a second file fills those waits. STRAND_TEST_WORKERS overrides it.
    maxWorkers: Number(process.env.STRAND_TEST_WORKERS ?? Math.max(2, availableParallelism() - 1)),
    // No test may depend on another having run first (README "Tests"): every run shuffles.
    sequence: { shuffle: true, seed },
    // The seed's line; CLI tests spawn the bundled `strand`, so build it from the sources under test first.
    globalSetup: [
      'packages/test-support/src/seed/seed.global-setup.ts',
      'packages/cli/src/testing/bundle.global-setup.ts',
    ],
    setupFiles: ['packages/test-support/src/seed/fast-check.setup.ts'],
  },
});
