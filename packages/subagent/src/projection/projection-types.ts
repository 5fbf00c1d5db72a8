import type { SessionSeq } from '@strand/session';

/**
 * The client view of a subagent's identity (the listing contract): mode and label folded from the session's
 * last `subagent/descriptor` event, plus that event's `seq` — the proof a consumer checks against
 * the session's own suffix (`Session.isOwnSeq`, or `seq >= inheritedEventCount` on an
 * observation). The label's strength follows the descriptor schema: mandatory for a continuable
 * child, optional for a one-shot one.
 */
export type SubagentIdentityProjection =
  | { readonly mode: 'one-shot'; readonly label?: string; readonly seq: SessionSeq }
  | { readonly mode: 'continuable'; readonly label: string; readonly seq: SessionSeq };

/** The identity unit's checkpointed state: the validated identity, or `{}` for "computed to nothing". */
export interface SubagentIdentityState {
  readonly identity?: SubagentIdentityProjection;
}

/** An open turn measured at one cut: its start and the time of the last event folded inside it. */
export interface SubagentActiveTurn {
  readonly since: number;
  readonly through: number;
}

/**
 * The client view of a subagent's active time, counted from the session's own (last) descriptor.
 * See `src/projection/README.md` for the exact rules.
 */
export interface SubagentTimingProjection {
  /** Milliseconds of the turns closed since the descriptor: Σ max(0, turn/end.time − since). */
  readonly settledMs: number;
  /** How many turns `settledMs` sums. */
  readonly settledTurns: number;
  /** The turn open at this cut, or `null` when none is. */
  readonly active: SubagentActiveTurn | null;
}

/**
 * The timing unit's checkpointed state. Flat on purpose: inside an open turn every event moves
 * `through`, so the fold allocates one small object per event and nothing more.
 */
export interface SubagentTimingState {
  /** Whether a descriptor has been folded: before it nothing counts (an inherited prefix, an ordinary session). */
  readonly counting: boolean;
  readonly settledMs: number;
  readonly settledTurns: number;
  /**
   * The open turn's start, or `null` when no turn is open. Tracked before the descriptor too, so
   * a turn the descriptor lands in counts from its start.
   */
  readonly since: number | null;
  /** The time of the last event folded inside the open turn (`null` when none is open). */
  readonly through: number | null;
}

// The augmentation names projection's types module by path, not `@strand/projection`: merging
// through the package's re-export reaches the interfaces but not the aliases computed from them
// inside that module (`ProjectionKey`, `StateOf`, `ViewOf`), so `register`/`snapshot` would not
// see these keys. Type-only: nothing of it exists at run time.
declare module '../../../projection/src/types.js' {
  interface ProjectionStateMap {
    subagent: SubagentIdentityState;
    subagentTiming: SubagentTimingState;
  }
  interface ProjectionViewMap {
    subagent: SubagentIdentityProjection | null;
    subagentTiming: SubagentTimingProjection;
  }
}
