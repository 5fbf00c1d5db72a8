/** A uniform PRNG on [0, 1): the caller's only source of randomness, so a seed fixes the output. */
export type Rng = () => number;

/**
 * mulberry32: tiny, fast and good enough for synthetic text. Chosen because the reference system
 * (dsh) used it, so a seed yields comparable workloads on both sides.
 */
export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An integer in [min, max], both inclusive. */
export function intBetween(rng: Rng, min: number, max: number): number {
  return min + Math.floor(rng() * (max - min + 1));
}
