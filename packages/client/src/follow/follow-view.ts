import type { FollowStopped, WireEvent, WireSessionHeader } from '@strand/protocol';

/**
 * - `idle`: following nothing.
 * - `opening`: the first generation was asked for; nothing is shown yet.
 * - `following`: the shown generation is the current one; frames apply to it.
 * - `refollowing`: a previous generation is shown while a new one opens (reconnect, resync).
 * - `failed`: the latest (re)follow failed with `error`; the previous generation, if any, stays
 *   shown; the next reconnect or `refollow()` tries again.
 */
export type FollowPhase = 'idle' | 'opening' | 'following' | 'refollowing' | 'failed';

/** One accepted generation as shown: its snapshot plus everything applied since. */
export interface ShownGeneration {
  readonly followId: string;
  readonly generation: number;
  readonly header: WireSessionHeader;
  readonly inheritedEventCount: number;
  /** The first event held; `> 0` means older history is available through `loadOlder`. */
  readonly firstSeq: number;
  /** The next seq expected: events are exactly `[firstSeq, cursor)`, contiguous, de-duplicated. */
  readonly cursor: number;
  readonly events: readonly WireEvent[];
  readonly live: boolean;
  readonly busy: boolean;
  /** Set once the host said the live session stopped on a failed durable write. */
  readonly stopped?: FollowStopped;
}

export interface FollowView {
  readonly sessionId: string | null;
  readonly phase: FollowPhase;
  readonly shown: ShownGeneration | null;
  /** The latest failure (`StrandRpcError`, `StrandClientError`), cleared when a generation is accepted. */
  readonly error: unknown;
}

export type LoadOlderResult =
  | { readonly kind: 'loaded'; readonly count: number }
  /** The window already starts at seq 0. */
  | { readonly kind: 'complete' }
  /** The window changed while the page was in flight (a new generation replaced it); nothing applied. */
  | { readonly kind: 'superseded' };
