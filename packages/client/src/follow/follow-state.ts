import { assertNever } from '../assert-never.js';
import { isSameOpening, type Opening } from './frame-routing.js';
import type { FollowPhase, ShownGeneration } from './follow-view.js';
import type { Carrier } from './shown-generation.js';

/**
 * The pure state machine of a `SessionFollower` (packages/client/README.md). The follower holds
 * one `FollowState` and replaces it with what these transitions return; every side effect (a
 * call, a listener, a promise to settle, a follow id to release) is named in the tagged result
 * and carried out by the follower, so the rules below can be tested without a socket.
 *
 * Invariants, by construction of the variants:
 * - An accepted generation (`accepted`: its carrier and what it shows) exists exactly in
 *   `following`, `resyncing`, `failed`, and possibly `closed`.
 * - The caller of `follow()` is waiting (`first`) exactly while nothing was accepted yet
 *   (`connecting`, `awaitingSnapshot`); every transition that leaves those hands `first` back
 *   to be settled, so it is settled once and never lost.
 * - At most one `session.follow` is in flight (`opening`), only in `awaitingSnapshot` and
 *   `resyncing`; only the current opening's snapshot or failure moves the state.
 */
export interface FollowTarget {
  readonly sessionId: string;
  readonly interactive: boolean;
}

/** The pending `follow()` promise. */
export interface Deferred {
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/** The accepted generation: the carrier its frames come on and what it shows. */
export interface Accepted {
  readonly carrier: Carrier;
  readonly shown: ShownGeneration;
}

export type FollowState =
  /** Following nothing; `error` is the failure that ended the last follow, if any. */
  | { readonly kind: 'idle'; readonly error: unknown }
  /** Nothing accepted yet and no follow in flight: waiting for the socket to open. */
  | { readonly kind: 'connecting'; readonly target: FollowTarget; readonly first: Deferred }
  /** The first generation was asked for. */
  | {
      readonly kind: 'awaitingSnapshot';
      readonly target: FollowTarget;
      readonly first: Deferred;
      readonly opening: Opening;
    }
  /** The accepted generation is the current one; its frames apply. */
  | {
      readonly kind: 'following';
      readonly target: FollowTarget;
      readonly accepted: Accepted;
      readonly error: unknown;
    }
  /** A previous generation stays shown while a new one opens (`opening`), or waits for the socket (`null`). */
  | {
      readonly kind: 'resyncing';
      readonly target: FollowTarget;
      readonly accepted: Accepted;
      readonly opening: Opening | null;
      readonly error: unknown;
    }
  /** The latest re-follow failed with `error`; the accepted generation stays shown. */
  | {
      readonly kind: 'failed';
      readonly target: FollowTarget;
      readonly accepted: Accepted;
      readonly error: unknown;
    }
  /** The connection was closed for good; whatever was accepted stays shown. */
  | {
      readonly kind: 'closed';
      readonly target: FollowTarget;
      readonly accepted: Accepted | null;
      readonly error: unknown;
    };

export type Transition =
  | { readonly kind: 'moved'; readonly state: FollowState }
  /** The input does not apply to this state (a stale opening, nothing followed, ...). */
  | { readonly kind: 'unchanged' };

/** What `follow()` leaves behind: waiting for a socket (`opened` follows at once when one is open). */
export function begin(target: FollowTarget, first: Deferred): FollowState {
  return { kind: 'connecting', target, first };
}

export function phaseOf(state: FollowState): FollowPhase {
  switch (state.kind) {
    case 'idle':
      return 'idle';
    case 'connecting':
    case 'awaitingSnapshot':
      return 'opening';
    case 'following':
      return 'following';
    case 'resyncing':
      return 'refollowing';
    case 'failed':
    case 'closed':
      return 'failed';
    default:
      return assertNever(state, 'follow state');
  }
}

export function targetOf(state: FollowState): FollowTarget | null {
  return state.kind === 'idle' ? null : state.target;
}

export function acceptedOf(state: FollowState): Accepted | null {
  switch (state.kind) {
    case 'following':
    case 'resyncing':
    case 'failed':
    case 'closed':
      return state.accepted;
    default:
      return null;
  }
}

export function openingOf(state: FollowState): Opening | null {
  return state.kind === 'awaitingSnapshot' || state.kind === 'resyncing' ? state.opening : null;
}

/** The state's opening replaced by `opening` (the same `session.follow`, holding more frames). */
export function withOpening(state: FollowState, opening: Opening): Transition {
  if (!isSameOpening(openingOf(state), opening)) return { kind: 'unchanged' };
  if (state.kind === 'awaitingSnapshot' || state.kind === 'resyncing') {
    return { kind: 'moved', state: { ...state, opening } };
  }
  return { kind: 'unchanged' }; // unreachable: only those two hold an opening
}

export function errorOf(state: FollowState): unknown {
  return state.kind === 'connecting' || state.kind === 'awaitingSnapshot' ? null : state.error;
}

function firstOf(state: FollowState): Deferred | null {
  return state.kind === 'connecting' || state.kind === 'awaitingSnapshot' ? state.first : null;
}

/** A `session.follow` was sent as `opening`; it supersedes any opening in flight. */
export function opened(state: FollowState, opening: Opening): Transition {
  switch (state.kind) {
    case 'connecting':
    case 'awaitingSnapshot':
      return {
        kind: 'moved',
        state: { kind: 'awaitingSnapshot', target: state.target, first: state.first, opening },
      };
    case 'following':
    case 'resyncing':
    case 'failed':
      return { kind: 'moved', state: resyncingFrom(state, opening) };
    case 'idle':
    case 'closed':
      return { kind: 'unchanged' };
    default:
      return assertNever(state, 'follow state');
  }
}

/** Resyncing from a state with an accepted generation: it stays shown, its last error kept. */
function resyncingFrom(
  state: { readonly target: FollowTarget; readonly accepted: Accepted; readonly error: unknown },
  opening: Opening | null,
): FollowState {
  return { kind: 'resyncing', target: state.target, accepted: state.accepted, opening, error: state.error };
}

/** The socket went away, and with it every follow id on it: the next open re-follows. */
export function socketLost(state: FollowState): Transition {
  switch (state.kind) {
    case 'awaitingSnapshot':
      return { kind: 'moved', state: begin(state.target, state.first) };
    case 'following':
    case 'resyncing':
      return { kind: 'moved', state: resyncingFrom(state, null) };
    case 'idle':
    case 'connecting':
    case 'failed':
    case 'closed':
      return { kind: 'unchanged' };
    default:
      return assertNever(state, 'follow state');
  }
}

export type ClosedResult =
  /** `reject`: the waiting `follow()`, to reject with the closing error. */
  | { readonly kind: 'closed'; readonly state: FollowState; readonly reject: Deferred | null }
  | { readonly kind: 'unchanged' };

/** The connection closed for good (`error` says so). */
export function connectionClosed(state: FollowState, error: unknown): ClosedResult {
  if (state.kind === 'idle') return { kind: 'unchanged' };
  return {
    kind: 'closed',
    state: { kind: 'closed', target: state.target, accepted: acceptedOf(state), error },
    reject: firstOf(state),
  };
}

export type OpeningFailedResult =
  /** Not the current opening (superseded, or its socket went away): nothing changes. */
  | { readonly kind: 'stale' }
  /** Its socket went away: no failure, the next open re-follows. */
  | { readonly kind: 'dropped'; readonly state: FollowState }
  /** The first generation failed: the follower goes idle and `follow()` rejects with `error`. */
  | { readonly kind: 'stopped'; readonly state: FollowState; readonly reject: Deferred }
  /** A later generation failed: the accepted one stays shown. */
  | { readonly kind: 'failed'; readonly state: FollowState };

/** `opening`'s `session.follow` failed (or its snapshot was invalid) with `error`. */
export function openingFailed(
  state: FollowState,
  opening: Opening,
  error: unknown,
  disconnected: boolean,
): OpeningFailedResult {
  if (!isSameOpening(openingOf(state), opening)) return { kind: 'stale' };
  switch (state.kind) {
    case 'awaitingSnapshot':
      return disconnected
        ? { kind: 'dropped', state: begin(state.target, state.first) }
        : { kind: 'stopped', state: { kind: 'idle', error }, reject: state.first };
    case 'resyncing':
      return disconnected
        ? { kind: 'dropped', state: { ...state, opening: null } }
        : {
            kind: 'failed',
            state: { kind: 'failed', target: state.target, accepted: state.accepted, error },
          };
    default:
      return { kind: 'stale' }; // unreachable: only those two hold an opening
  }
}

export type AcceptResult =
  | { readonly kind: 'stale' }
  /**
   * `resolve`: the waiting `follow()`; `release`: the previous generation's follow id, which the
   * host may still be serving.
   */
  | {
      readonly kind: 'accepted';
      readonly state: FollowState;
      readonly resolve: Deferred | null;
      readonly release: Carrier | null;
    };

/** `opening`'s snapshot validated and its window was joined: it becomes the accepted generation. */
export function snapshotAccepted(state: FollowState, opening: Opening, accepted: Accepted): AcceptResult {
  if (!isSameOpening(openingOf(state), opening) || state.kind === 'idle') return { kind: 'stale' };
  const previous = acceptedOf(state)?.carrier ?? null;
  return {
    kind: 'accepted',
    state: { kind: 'following', target: state.target, accepted, error: null },
    resolve: firstOf(state),
    release: previous !== null && previous.followId !== accepted.carrier.followId ? previous : null,
  };
}

/** The accepted generation now shows `shown` (live events, a state frame, an older page). */
export function showing(state: FollowState, shown: ShownGeneration): Transition {
  switch (state.kind) {
    case 'following':
    case 'resyncing':
    case 'failed':
      return { kind: 'moved', state: { ...state, accepted: { carrier: state.accepted.carrier, shown } } };
    case 'closed':
      return state.accepted === null
        ? { kind: 'unchanged' }
        : { kind: 'moved', state: { ...state, accepted: { carrier: state.accepted.carrier, shown } } };
    case 'idle':
    case 'connecting':
    case 'awaitingSnapshot':
      return { kind: 'unchanged' };
    default:
      return assertNever(state, 'follow state');
  }
}

/** Records `error` (a broken window about to be re-followed) where a state can carry one. */
export function withError(state: FollowState, error: unknown): FollowState {
  return state.kind === 'connecting' || state.kind === 'awaitingSnapshot' ? state : { ...state, error };
}

export type StopResult = {
  readonly state: FollowState;
  /** The waiting `follow()`, to reject. */
  readonly reject: Deferred | null;
  /** The accepted generation's follow id, to release on the host. */
  readonly release: Carrier | null;
};

/** `unfollow()`: back to idle; the previous error stays readable. */
export function stopped(state: FollowState): StopResult {
  return {
    state: { kind: 'idle', error: errorOf(state) },
    reject: firstOf(state),
    release: acceptedOf(state)?.carrier ?? null,
  };
}
