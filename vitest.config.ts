import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts'],
    // Crash and contract suites spawn processes and fsync real files; give them room on a 2-core box.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One seed per run (printed; replay with STRAND_TEST_SEED=<n>) for fast-check and random
    // choices; CLI tests spawn the bundled `strand`, so build it from the sources under test first.
    globalSetup: [
      'packages/test-support/src/seed/seed.global-setup.ts',
      'packages/cli/src/testing/bundle.global-setup.ts',
    ],
    setupFiles: ['packages/test-support/src/seed/fast-check.setup.ts'],
  },
});
