import type { SessionEvent, SessionHeader, SessionLogOffset } from '@strand/session';

/**
 * The one typed key map. Each key's fold state (plain JSON, checkpointed) is declared here and its
 * client view in `ProjectionViewMap`; domains add keys by declaration merging:
 *
 * ```ts
 * declare module '@strand/projection' {
 *   interface ProjectionStateMap { subagent: { identity?: SubagentIdentityProjection } }
 *   interface ProjectionViewMap { subagent: SubagentIdentityProjection | null }
 * }
 * ```
 *
 * Client code imports these types without importing any host code.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface ProjectionStateMap {}
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface ProjectionViewMap {}

/** A key declared in both maps. */
export type ProjectionKey = Extract<keyof ProjectionStateMap & keyof ProjectionViewMap, string>;

/** The state type of `K`; `unknown` for a key not declared in the map (tests, plugins in development). */
export type StateOf<K extends string> = K extends keyof ProjectionStateMap ? ProjectionStateMap[K] : unknown;
/** The client view type of `K`; `unknown` for an undeclared key. */
export type ViewOf<K extends string> = K extends keyof ProjectionViewMap ? ProjectionViewMap[K] : unknown;

/**
 * A projection unit: the single fold authority for one client-visible fact.
 *
 * Contract (the registry survives a unit that breaks it, but fails that session's snapshot):
 * - pure and synchronous; never throws — corrupt or unknown input folds to an explicit `null` view;
 * - `init` receives the session header and its `FoldOrigin`, which never change for the lifetime
 *   of a session, so a unit may seed its state from them (`agentPreset`, `usage` do);
 * - `apply` returns the *same reference* when the event is irrelevant; then nothing downstream runs
 *   (no view, no change frame) — and it never mutates the state it was given;
 * - state is plain JSON: it is checkpointed and restored through `JSON.stringify`/`JSON.parse`, and
 *   folding on from a restored copy must give what folding on from the original gives;
 * - `view` is an uncached pure transformation of state (seed: no second cache of viewed values);
 * - `stateVersion` (a positive integer) is bumped whenever the state's shape or meaning changes, so
 *   old checkpoint rows are discarded instead of misread.
 */
export interface ProjectionUnit<State, View, Key extends string = string> {
  readonly key: Key;
  readonly stateVersion: number;
  /**
   * The event types whose `data` `apply` may read. For every other type it reads only `type`,
   * `seq` and `time`, so a cold fold may hand it that event with `data: null` and skip parsing the
   * data (a persistence `scan`). Omitted means "any type's data": cold folds then read every event
   * in full. The unit laws check the declaration.
   */
  readonly dataReads?: readonly string[];
  init(header: SessionHeader, origin: FoldOrigin): State;
  apply(state: State, event: SessionEvent): State;
  view(state: State): View;
}

/**
 * What besides the header a unit may seed its state from: facts fixed for the session's lifetime
 * that the header does not carry (the listing contract keeps the exact inherited count off it).
 */
export interface FoldOrigin {
  /** How many of the log's first events a seeded session inherited from its parent (else 0). */
  readonly inheritedEventCount: number;
}

/** A session that inherited nothing: the origin of every session that is not a seeded child. */
export const UNSEEDED: FoldOrigin = Object.freeze({ inheritedEventCount: 0 });

/** The unit type the key map prescribes for `K`. */
export type ProjectionUnitFor<K extends string> = ProjectionUnit<StateOf<K>, ViewOf<K>, K>;

/** Any unit, as the registry stores it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- erased at the registry boundary; typed at register/snapshot
export type AnyProjectionUnit = ProjectionUnit<any, unknown, string>;

/** Client values by key. A missing key means the capability is absent (not registered here). */
export type ProjectionValues<K extends string = ProjectionKey> = { readonly [P in K]?: ViewOf<P> };

/**
 * Every requested key's value at one cut. `asOfSeq` is the seq of the last event folded (cut − 1,
 * −1 for an empty log): one `asOfSeq` for all keys.
 */
export interface ProjectionSnapshot<K extends string = ProjectionKey> {
  readonly asOfSeq: number;
  readonly values: ProjectionValues<K>;
}

/**
 * One key's restorable fold state. `cut` is a log offset (docs/architecture.md, "Cut arithmetic"): the state folds exactly the
 * events with `seq < cut`. (The issue text names this field `seq`; it is an offset, so it is named
 * `cut` to keep the cut arithmetic unambiguous.)
 */
export interface CheckpointRow {
  readonly stateVersion: number;
  readonly cut: SessionLogOffset;
  readonly state: unknown;
}

/** Checkpoint rows by key. */
export type CheckpointRows = Readonly<Record<string, CheckpointRow>>;
