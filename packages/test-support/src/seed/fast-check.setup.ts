/**
 * Vitest setup file (runs in every test worker before each test file): every fast-check property
 * runs with the run's seed, and a failing one says how to replay it. A property may still pass
 * its own `numRuns` and the like; only `seed` and the report are global.
 */
import fc from 'fast-check';
import { replayHint, testSeed } from './test-seed.js';

const seed = testSeed();

fc.configureGlobal({
  ...fc.readConfigureGlobal(),
  seed,
  reporter(details) {
    if (!details.failed) return;
    const message = fc.defaultReportMessage(details) ?? 'Property failed';
    throw new Error(`${message}\n\n${replayHint(seed)}`, { cause: details.errorInstance });
  },
});
