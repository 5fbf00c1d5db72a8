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
 * Rungs 1 and 2 run synchronously, right after enumeration and before any await, so a live
 * child is snapshotted while the Session enumerated is still the attached one. The children left
 * over take rung 3, at most `limits.coldReadConcurrency` at a time. Nothing is memoized: the
 * next listing computes everything again.
 */
export async function resolveLadder(
  candidates: readonly Candidate[],
  services: ListingServices,
  limits: ListingLimits,
  signal: AbortSignal | undefined,
): Promise<LadderResult[]> {
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
