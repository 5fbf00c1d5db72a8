import { intBetween, mulberry32, type Rng } from './prng.js';

export const VOCABULARY_SIZE = 5_000;
/** The vocabulary is fixed for every session (only word *choice* depends on the session seed). */
const VOCABULARY_SEED = 0x5eed;
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

function buildVocabulary(): readonly string[] {
  const rng = mulberry32(VOCABULARY_SEED);
  const words = new Set<string>();
  while (words.size < VOCABULARY_SIZE) {
    const length = intBetween(rng, 2, 11);
    let word = '';
    for (let i = 0; i < length; i++) word += LETTERS[Math.floor(rng() * LETTERS.length)];
    words.add(word);
  }
  return Object.freeze([...words]);
}

/** 5,000 distinct synthetic words of 2–11 lowercase letters. */
export const VOCABULARY: readonly string[] = buildVocabulary();

/** A Zipf-like pick: index ⌊u³ · 5000⌋ makes low indexes (the "common words") dominate. */
export function pickWord(rng: Rng): string {
  const u = rng();
  return VOCABULARY[Math.floor(u * u * u * VOCABULARY_SIZE)]!;
}
