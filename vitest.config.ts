import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts'],
    // Crash and contract suites spawn processes and fsync real files; give them room on a 2-core box.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // CLI tests spawn the bundled `strand`; build it from the sources under test first.
    globalSetup: ['packages/cli/src/testing/bundle.global-setup.ts'],
  },
});
