/**
 * One seed per test run. The test order and every random choice a test makes derive from it, so a
 * failure replays exactly with `STRAND_TEST_SEED=<n> npx vitest run <file>`: `vitest.config.ts`
 * draws it once and shuffles the order with it, the vitest global setup prints it, workers inherit
 * it through the environment, fast-check runs every property with it (see `fast-check.setup.ts`),
 * and plain random choices come from {@link seededSample}.
 */
import fc from 'fast-check';

export const TEST_SEED_VARIABLE = 'STRAND_TEST_SEED';

/** fast-check seeds are 32-bit integers; a wider value would be truncated and replay something else. */
const MAX_SEED = 2 ** 31 - 1;

/** A typed failure for a malformed `STRAND_TEST_SEED`: silently ignoring it would replay nothing. */
export class TestSeedError extends Error {
  readonly code = 'TEST_SEED_INVALID';
  constructor(raw: string) {
    super(`${TEST_SEED_VARIABLE} must be an integer in [0, ${MAX_SEED}], got "${raw}"`);
    this.name = 'TestSeedError';
  }
}

/** Parses a seed as written in the environment; `undefined` when none is set. */
export function parseTestSeed(raw: string | undefined): number | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const text = raw.trim();
  if (!/^\d+$/.test(text)) throw new TestSeedError(raw);
  const seed = Number(text);
  if (seed > MAX_SEED) throw new TestSeedError(raw);
  return seed;
}

/**
 * The run's seed: `STRAND_TEST_SEED` when set, otherwise a fresh one written back to the
 * environment so everything later in this process (and every child it spawns) uses the same.
 */
export function testSeed(env: NodeJS.ProcessEnv = process.env): number {
  const given = parseTestSeed(env[TEST_SEED_VARIABLE]);
  if (given !== undefined) return given;
  // The only unseeded draw: it picks the run's seed, which is printed before anything uses it.
  const fresh = Math.floor(Math.random() * MAX_SEED);
  env[TEST_SEED_VARIABLE] = String(fresh);
  return fresh;
}

/** The line a failure (or a random choice) prints so the run can be replayed. */
export function replayHint(seed: number = testSeed()): string {
  return `replay with ${TEST_SEED_VARIABLE}=${seed}`;
}

/**
 * `count` values drawn from `arbitrary` with the run's seed, printed with what they are for:
 * the way a test makes a plain random choice (kill delays, orders) that replays from the seed.
 */
export function seededSample<T>(what: string, arbitrary: fc.Arbitrary<T>, count: number): T[] {
  const seed = testSeed();
  const values = fc.sample(arbitrary, { seed, numRuns: count });
  console.info(`${what}: ${JSON.stringify(values)} (seed ${seed}; ${replayHint(seed)})`);
  return values;
}

/** `count` integers in `[min, max]` from the run's seed, printed with what they are for. */
export function seededIntegers(
  what: string,
  range: { readonly min: number; readonly max: number },
  count: number,
): number[] {
  return seededSample(what, fc.integer(range), count);
}
