/**
 * Rung-3 observations (full cold reads) in flight at once per listing (the listing contract: the constant 4).
 * It bounds a read-only scan of local media, not deployment behaviour; with a networked
 * persistence backend it becomes a validated configuration field — which is why the listing
 * takes its limits as a value (`ListingLimits`) rather than reading this constant deep inside.
 */
export const SUBAGENT_COLD_READ_CONCURRENCY = 4;

/**
 * The largest configurable bound. Each rung-3 read holds one full decoded log in memory (and, on
 * a networked backend, one connection), so the bound is kept small enough that a listing of a big
 * tree cannot exhaust either.
 */
export const MAX_SUBAGENT_COLD_READ_CONCURRENCY = 64;

export interface ListingLimits {
  /** An integer 1…`MAX_SUBAGENT_COLD_READ_CONCURRENCY` (validated where configuration enters: the runtime). */
  readonly coldReadConcurrency: number;
}

export const DEFAULT_LISTING_LIMITS: ListingLimits = Object.freeze({
  coldReadConcurrency: SUBAGENT_COLD_READ_CONCURRENCY,
});
