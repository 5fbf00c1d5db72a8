/**
 * The seed of a random test choice (a fast-check run): `STRAND_TEST_SEED` when set, else a fresh
 * one — printed either way, so any failure replays with `STRAND_TEST_SEED=<seed>`.
 */
export function testSeed(what: string): number {
  const fromEnv = process.env.STRAND_TEST_SEED;
  const seed = fromEnv === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(fromEnv);
  console.log(`${what}: STRAND_TEST_SEED=${seed}`);
  return seed;
}
