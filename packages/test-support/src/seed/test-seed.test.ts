import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  TEST_SEED_VARIABLE,
  TestSeedError,
  parseTestSeed,
  replayHint,
  seededIntegers,
  seededSample,
  testSeed,
} from './test-seed.js';

describe('the run seed', () => {
  it('parses a written seed and refuses anything fast-check would not replay exactly', () => {
    expect(parseTestSeed(undefined)).toBeUndefined();
    expect(parseTestSeed('  ')).toBeUndefined();
    expect(parseTestSeed(' 42 ')).toBe(42);
    expect(parseTestSeed('2147483647')).toBe(2 ** 31 - 1);
    for (const bad of ['-1', '1.5', 'abc', '2147483648', '0x10']) {
      expect(() => parseTestSeed(bad)).toThrow(TestSeedError);
    }
    expect(() => parseTestSeed('abc')).toThrow(expect.objectContaining({ code: 'TEST_SEED_INVALID' }));
  });

  it('draws a fresh seed once and writes it back, so later reads and spawned processes agree', () => {
    const env: NodeJS.ProcessEnv = {};
    const first = testSeed(env);
    expect(env[TEST_SEED_VARIABLE]).toBe(String(first));
    expect(testSeed(env)).toBe(first);
    expect(testSeed({ [TEST_SEED_VARIABLE]: '7' })).toBe(7);
  });

  it('the config has already fixed the seed for this worker', () => {
    expect(process.env[TEST_SEED_VARIABLE]).toBe(String(testSeed()));
    expect(fc.readConfigureGlobal().seed).toBe(testSeed());
  });

  it('seeded samples replay: the same seed gives the same choices', () => {
    const arbitrary = fc.integer({ min: 0, max: 1_000 });
    const a = seededSample('sample a', arbitrary, 20);
    const b = seededSample('sample b', arbitrary, 20);
    expect(a).toEqual(b);
    expect(a).toEqual(fc.sample(arbitrary, { seed: testSeed(), numRuns: 20 }));
    const delays = seededIntegers('delays', { min: 5, max: 9 }, 50);
    expect(delays.every((d) => Number.isInteger(d) && d >= 5 && d <= 9)).toBe(true);
    expect(seededIntegers('delays again', { min: 5, max: 9 }, 50)).toEqual(delays);
  });

  it('a failing property reports the seed and how to replay it', () => {
    let message = '';
    try {
      fc.assert(fc.property(fc.nat(), (n) => n < 0));
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain(`seed: ${testSeed()}`);
    expect(message).toContain(replayHint());
  });
});
