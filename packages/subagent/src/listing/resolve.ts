import { throwIfCancelled } from './cancellation.js';
import { mapBounded } from './bounded-map.js';
import type { Candidate } from './catalog.js';
import type { LadderResult } from './ladder-result.js';
import { observedRung } from './ladder-observe.js';
import { resolveWithoutReading } from './ladder-sync.js';
import type { ListingLimits } from './limits.js';
import type { ListingServices } from './types.js';

/**
 * Walks the three-rung ladder for every candidate; results keep the candidates' order.
 *
 * Rungs 1 and 2 run synchronously, right after the cache rows of rung 2 are loaded (a store
 * holding only some sessions in memory loads the cold unseeded children's first); rung 1 re-checks
 * that the Session enumerated is still the attached one, and one detached meanwhile takes the cold
 * rungs. The children left
 * over take rung 3, at most `limits.coldReadConcurrency` at a time. Nothing is memoized: the
 * next listing computes everything again.
 */
export async function resolveLadder(
  candidates: readonly Candidate[],
  services: ListingServices,
  limits: ListingLimits,
  signal: AbortSignal | undefined,
): Promise<LadderResult[]> {
  await prefetchCachedRung(candidates, services);
  const results = candidates.map((candidate) => resolveWithoutReading(candidate, services));
  const cold: number[] = [];
  results.forEach((result, index) => {
    if (result === undefined) cold.push(index);
  });
  const observed = await mapBounded(cold, limits.coldReadConcurrency, signal, (index) =>
    observedRung(candidates[index]!, services.query, signal),
  );
  cold.forEach((candidateIndex, i) => (results[candidateIndex] = observed[i]));
  throwIfCancelled(signal);
  return results as LadderResult[];
}

/** Loads the cache rows rung 2 reads for the children that may take it (cold, unseeded). */
async function prefetchCachedRung(
  candidates: readonly Candidate[],
  services: ListingServices,
): Promise<void> {
  if (services.cache?.prefetch === undefined) return;
  const ids = candidates.flatMap((candidate) =>
    candidate.live === undefined && !candidate.header.isSeeded && candidate.incarnation !== undefined
      ? [candidate.id]
      : [],
  );
  if (ids.length === 0) return;
  try {
    await services.cache.prefetch(ids);
  } catch {
    // Derived data failing to load is a miss, never an error: rung 3 decides.
  }
}
