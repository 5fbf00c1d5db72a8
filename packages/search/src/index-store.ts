import type { SessionEvent, SessionHeader, SessionId } from '@strand/session';
import type { SessionRow } from './session-rows.js';
import type { AppendOutcome, BeginMode, Provenance } from './write-rules.js';

/** A value an engine returns directly (SQLite) or later (a database server). */
export type MaybePromise<T> = T | Promise<T>;

/**
 * What `begin` learns of the incarnation it binds (a persisted `StoredSuffix` and a live `Session`
 * both are one): its header (the facets) and its inherited prefix length (the row's `ownFrom`).
 */
export interface IndexedIncarnation {
  readonly header: SessionHeader;
  /** A fork's copied parent prefix: its events below this seq are not its own (0: not a fork). */
  readonly inheritedEventCount: number;
}

/**
 * The write side of a search index as the engine-neutral sync sees it (sync.ts, memory-indexing.ts).
 * Each method is one transaction of the engine, and applies the rules of write-rules.ts to the
 * bookkeeping row *as it is inside that transaction* — so a plan made from an older view of the row
 * (another host, a concurrent live append) is re-checked, never trusted.
 */
export interface SearchIndexStore {
  /** Every bookkeeping row; the sync plans from this view, read before it lists the corpus. */
  sessionRows(): MaybePromise<readonly SessionRow[]>;
  /**
   * Creates or re-binds the session's bookkeeping before indexing; returns the row as it now is.
   * A created or re-bound row (another incarnation, a reset) is filed under the facets of
   * `source.header` and indexes text from `source.inheritedEventCount` on (both fixed per
   * incarnation, so a kept row keeps them).
   */
  begin(
    sessionId: SessionId,
    incarnation: string | null,
    mode: BeginMode,
    source: IndexedIncarnation,
  ): MaybePromise<SessionRow>;
  /** Indexes the events from the row's cut (`planAppend`); `stale` when the row changed under the caller. */
  append(
    sessionId: SessionId,
    incarnation: string | null,
    events: readonly SessionEvent[],
    provenance: Provenance,
    revision?: string,
    /**
     * Whether a session a `session/continued-from` names as its origin is in the corpus (the
     * sync's listing): its exported prefix is then the origin's (`continuedOwnFrom`). Default:
     * whether the index has a row for it.
     */
    originKnown?: (session: string) => boolean,
  ): MaybePromise<AppendOutcome>;
  /**
   * Drops the session's rows and bookkeeping; with `sid`, only if the row still has that key (a
   * session indexed again since, by a live append or another host, is kept). Returns whether it dropped.
   */
  drop(sessionId: SessionId, sid?: number): MaybePromise<boolean>;
}
