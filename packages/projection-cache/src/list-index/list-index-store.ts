import type { ListIndexQuery, ListIndexRow, UsageIndexQuery, UsageIndexSession } from './list-row.js';

/** What the index holds of one session, for reconciling it with persistence. */
export interface ListIdentity {
  readonly sessionId: string;
  readonly incarnation: string;
  /** The cut the hints are at; `null` while the row has header facts only. */
  readonly asOfSeq: number | null;
  /** Whether the row's usage hours are known (`ListIndexStore.usage` serves the session). */
  readonly usageKnown: boolean;
}

export interface ListIdentityPage {
  readonly after: string;
  readonly limit: number;
}

/**
 * The list index a store keeps beside its cache rows: one row per session (packages/projection-cache/README.md,
 * "List index"). Writes are synchronous, like the `CacheRowStore`'s, because a row and its list
 * row are written in one step; reads are asynchronous, so an engine over the network answers a
 * page with one query instead of holding every row in memory.
 */
export interface ListIndexStore {
  /**
   * Upserts a session's row. A row of another incarnation replaces it; a row of the same
   * incarnation replaces it only when it carries hints at a cut not older than the stored one — a
   * header-only row never erases folded hints, a slower writer never moves them back. May throw.
   */
  upsert(row: ListIndexRow): void;
  /** Drops the row of `sessionId` (deleted). May throw. */
  forget(sessionId: string): void;
  /**
   * Keeps the row of `sessionId` but makes every hint (and its usage) unknown again (its cache rows were dropped
   * because a fold failed: a list row must not look healthier than the cache). May throw.
   */
  forgetHints(sessionId: string): void;
  /** Drops every row and the reconciled marker (before a rebuild). May throw. */
  clear(): void;
  /** Rows matching the filter strictly after `after`, in the list order, at most `limit`. */
  page(query: ListIndexQuery): Promise<readonly ListIndexRow[]>;
  /** The rows of these ids that exist, in no particular order. */
  rows(ids: readonly string[]): Promise<readonly ListIndexRow[]>;
  /**
   * The sessions matching `query` whose usage is known (`ListIndexRow.usage` was written for their
   * incarnation and not forgotten since), each with its hours inside the bounds: `usage.summary`'s
   * one query over the corpus. A session whose usage is unknown is absent.
   */
  usage(query: UsageIndexQuery): Promise<readonly UsageIndexSession[]>;
  /**
   * The identities of at most `limit` rows whose session id is strictly after `after` (`''`: from
   * the first), in id order (`compareSessionIds`, code point order): one keyset page of a walk over
   * the index that holds a page at a time (reconciling at open).
   */
  identities(page: ListIdentityPage): Promise<readonly ListIdentity[]>;
  /**
   * The ids of at most `limit` rows after `after` whose hints or usage hours are unknown
   * (`asOfSeq === null || !usageKnown`), in id order: what is left to fold, one keyset page at a
   * time. Absent: the caller filters `identities` pages instead (a walk over every row).
   */
  unfoldedIds?(page: ListIdentityPage): Promise<readonly string[]>;
  /**
   * The persistence change marker the last completed reconcile walked against (undefined: none,
   * or dropped since — by `clear`, or by any row's deletion). Absent: this store keeps none, and
   * every open walks.
   */
  reconciledMarker?(): Promise<string | undefined>;
  /**
   * Records `marker` as the one a completed reconcile walked against. The caller records it only
   * after every row the walk wrote is in the store; a store that writes behind must make the
   * record durable no earlier than the rows written before it. May throw.
   */
  recordReconciledMarker?(marker: string): void;
}
