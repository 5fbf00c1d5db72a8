import type { ProjectionRegistry } from '@strand/projection';
import type { SubagentListEntryOf } from '@strand/protocol';
import type { ProjectionCache } from '@strand/projection-cache';
import type { SessionQuery } from '@strand/query';
import type { SessionId, SessionStore } from '@strand/session';
import type { ListingLimits } from './limits.js';

/** One row of a subagent listing: the wire's shape (the listing contract, unchanged) with branded ids. */
export type SubagentListEntry = SubagentListEntryOf<SessionId>;

/** A `listDescendants` row: the child's entry plus where it hangs in the tree (direct children have depth 1). */
export type SubagentDescendantEntry = SubagentListEntry & {
  readonly parentId: SessionId;
  readonly depth: number;
};

/** The slices of the runtime services listing uses (narrow, so tests can wrap them). */
export type ListingProjections = Pick<ProjectionRegistry, 'snapshot' | 'has'>;
export type ListingSessions = Pick<SessionStore, 'get'>;
export type ListingQuery = Pick<SessionQuery, 'listSessions' | 'observeSession'>;
/** `prefetch` optional: a cache without it serves every read synchronously (or misses). */
export type ListingCache = Pick<ProjectionCache, 'cachedSnapshot'> &
  Partial<Pick<ProjectionCache, 'prefetch'>>;

/**
 * What listing reads from the runtime. `sessionProjections`, `sessions` and `sessionQuery` are
 * required — each missing one fails with its own code, whatever the parent — and must be the
 * registry, store and query of one composition (the query binds that registry to that store).
 * `sessionProjectionCache` is an optional acceleration: when absent it is skipped, no error.
 */
export interface SubagentListingContext {
  readonly sessionProjections?: ListingProjections | undefined;
  readonly sessions?: ListingSessions | undefined;
  readonly sessionQuery?: ListingQuery | undefined;
  readonly sessionProjectionCache?: ListingCache | undefined;
  /** Bounds of this deployment (default `DEFAULT_LISTING_LIMITS`: 4 cold reads, for local files). */
  readonly limits?: ListingLimits | undefined;
}

/** The context after the required-service check. */
export interface ListingServices {
  readonly projections: ListingProjections;
  readonly sessions: ListingSessions;
  readonly query: ListingQuery;
  readonly cache: ListingCache | undefined;
}
