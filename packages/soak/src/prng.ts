import { unsafeUniformIntDistribution, xoroshiro128plus, type RandomGenerator } from 'pure-rand';

/**
 * The soak's one source of randomness: every choice (operations, sessions, kill moments, the fault
 * schedule) is drawn from it, so a seed replays the same plan. Never `Math.random`.
 */
export class Prng {
  readonly #rng: RandomGenerator;

  constructor(seed: number) {
    this.#rng = xoroshiro128plus(seed | 0);
  }

  /** An integer in [from, to]. */
  int(from: number, to: number): number {
    return unsafeUniformIntDistribution(from, to, this.#rng);
  }

  /** A number in [0, 1). */
  next(): number {
    return this.int(0, 2 ** 30 - 1) / 2 ** 30;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[this.int(0, items.length - 1)]!;
  }

  /** A child generator: one stream per client, so clients do not perturb each other's choices. */
  fork(): Prng {
    return new Prng(this.int(0, 2 ** 31 - 2));
  }
}
