import type { Rng } from '@strand/workload';

/*
 * The words and ids the generated corpora of the benchmarks are made of, one copy for every
 * generator: seeded (`mulberry32`), so a corpus is the same on every run.
 */

const WORDS =
  'the a session turn model tool file read write project test build error fix change import module function value type check result output input stream line event log store index query cache child parent agent'.split(
    ' ',
  );

/** `n` words drawn from a small vocabulary, space-separated. */
export function words(rng: Rng, n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(WORDS[Math.floor(rng() * WORDS.length)]!);
  return out.join(' ');
}

/** `n` lowercase hex digits. */
export function hex(rng: Rng, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += Math.floor(rng() * 16).toString(16);
  return s;
}

/** A version-4-shaped UUID. */
export function uuid(rng: Rng): string {
  return `${hex(rng, 8)}-${hex(rng, 4)}-4${hex(rng, 3)}-a${hex(rng, 3)}-${hex(rng, 12)}`;
}
