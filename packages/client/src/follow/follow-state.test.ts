import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { holding, newOpening, type Opening } from './frame-routing.js';
import type { ShownGeneration } from './follow-view.js';
import {
  acceptedOf,
  begin,
  connectionClosed,
  errorOf,
  opened,
  openingFailed,
  openingOf,
  phaseOf,
  showing,
  snapshotAccepted,
  socketLost,
  stopped,
  targetOf,
  withError,
  withOpening,
  type Accepted,
  type Deferred,
  type FollowState,
} from './follow-state.js';
import { SessionId } from '@strand/session';

const target = { sessionId: 's', interactive: false };
const idle: FollowState = { kind: 'idle', error: null };

/** A deferred that counts how often it was settled. */
function deferred(): Deferred & { settled: number; outcome: 'resolved' | 'rejected' | null } {
  const d = {
    settled: 0,
    outcome: null as 'resolved' | 'rejected' | null,
    resolve: () => {
      d.settled += 1;
      d.outcome = 'resolved';
    },
    reject: () => {
      d.settled += 1;
      d.outcome = 'rejected';
    },
  };
  return d;
}

let openings = 0;
/** A new `session.follow` each call (ids unique, as the follower makes them). */
const opening = (epoch = 1): Opening => newOpening(++openings, epoch);

function acceptedAs(followId: string, generation: number, epoch = 1): Accepted {
  const shown: ShownGeneration = {
    followId,
    generation,
    header: { version: 1, id: SessionId('s'), createdAt: 1, isSeeded: false },
    inheritedEventCount: 0,
    firstSeq: 0,
    cursor: 0,
    events: [],
    live: true,
    busy: false,
  };
  return { carrier: { followId, generation, epoch }, shown };
}

function moved(result: { kind: string; state?: FollowState }): FollowState {
  expect(result.kind).not.toBe('unchanged');
  return result.state!;
}

describe('follow-state transitions', () => {
  it('follow → open → accept: following, the waiting follow() is handed back to resolve', () => {
    const first = deferred();
    const o = opening();
    let state = begin(target, first);
    expect(phaseOf(state)).toBe('opening');
    state = moved(opened(state, o));
    expect(state.kind).toBe('awaitingSnapshot');
    expect(openingOf(state)).toBe(o);
    const result = snapshotAccepted(state, o, acceptedAs('f1', 1));
    expect(result).toMatchObject({ kind: 'accepted', resolve: first, release: null });
    if (result.kind !== 'accepted') return;
    expect(result.state).toMatchObject({ kind: 'following', error: null });
    expect(phaseOf(result.state)).toBe('following');
    expect(acceptedOf(result.state)?.carrier.followId).toBe('f1');
  });

  it('an opening holding frames replaces itself in the state; a superseded one does not', () => {
    const o = opening();
    const state = moved(opened(begin(target, deferred()), o));
    const holdingOne = holding(o, { followId: 'f1', generation: 1, kind: 'subagents' }, 10);
    const after = moved(withOpening(state, holdingOne));
    expect(openingOf(after)).toBe(holdingOne);
    expect(openingOf(state)).toBe(o); // the state before is unchanged
    // The opening as it was sent still names the current one: its snapshot is accepted.
    expect(snapshotAccepted(after, o, acceptedAs('f1', 1)).kind).toBe('accepted');
    const superseded = moved(opened(after, opening()));
    expect(withOpening(superseded, holdingOne)).toEqual({ kind: 'unchanged' });
    expect(withOpening(idle, holdingOne)).toEqual({ kind: 'unchanged' });
  });

  it("a superseded opening's snapshot or failure changes nothing", () => {
    const older = opening();
    const newer = opening();
    let state = moved(opened(begin(target, deferred()), older));
    state = moved(opened(state, newer));
    expect(snapshotAccepted(state, older, acceptedAs('f1', 1))).toEqual({ kind: 'stale' });
    expect(openingFailed(state, older, new Error('x'), false)).toEqual({ kind: 'stale' });
    expect(snapshotAccepted(idle, older, acceptedAs('f1', 1))).toEqual({ kind: 'stale' });
  });

  it('a first generation that fails stops the follow and hands follow() back to reject', () => {
    const first = deferred();
    const o = opening();
    const state = moved(opened(begin(target, first), o));
    const error = new Error('not found');
    expect(openingFailed(state, o, error, false)).toEqual({
      kind: 'stopped',
      state: { kind: 'idle', error },
      reject: first,
    });
  });

  it('a lost socket is no failure: the opening is dropped and the next open re-follows', () => {
    const first = deferred();
    const o = opening();
    const awaiting = moved(opened(begin(target, first), o));
    expect(openingFailed(awaiting, o, new Error('gone'), true)).toEqual({
      kind: 'dropped',
      state: begin(target, first),
    });
    expect(moved(socketLost(awaiting))).toEqual(begin(target, first));
  });

  it('a re-follow keeps the accepted generation shown while it opens, fails, or waits for the socket', () => {
    const o = opening(2);
    const following: FollowState = { kind: 'following', target, accepted: acceptedAs('f1', 1), error: null };
    const resyncing = moved(opened(following, o));
    expect(phaseOf(resyncing)).toBe('refollowing');
    expect(acceptedOf(resyncing)).toBe(acceptedOf(following));
    const error = new Error('busy');
    const failed = openingFailed(resyncing, o, error, false);
    expect(failed).toMatchObject({ kind: 'failed', state: { kind: 'failed', error } });
    if (failed.kind !== 'failed') return;
    expect(phaseOf(failed.state)).toBe('failed');
    expect(acceptedOf(failed.state)).toBe(acceptedOf(following));
    expect(socketLost(failed.state)).toEqual({ kind: 'unchanged' }); // it stays failed until a retry
    const lost = moved(socketLost(following));
    expect(lost).toMatchObject({ kind: 'resyncing', opening: null });
    expect(phaseOf(lost)).toBe('refollowing');
  });

  it('a new generation hands the previous follow id back to release, not the same one', () => {
    const o = opening(2);
    const resyncing = moved(
      opened({ kind: 'following', target, accepted: acceptedAs('f1', 1), error: 'old' }, o),
    );
    const other = snapshotAccepted(resyncing, o, acceptedAs('f2', 2, 2));
    expect(other).toMatchObject({ kind: 'accepted', resolve: null, release: { followId: 'f1', epoch: 1 } });
    expect(errorOf((other as { state: FollowState }).state)).toBeNull();
    const same = snapshotAccepted(resyncing, o, acceptedAs('f1', 2));
    expect(same).toMatchObject({ kind: 'accepted', release: null });
  });

  it('closing hands back the waiting follow(); a closed follower opens nothing but can be stopped', () => {
    const first = deferred();
    const error = new Error('closed');
    const closed = connectionClosed(moved(opened(begin(target, first), opening())), error);
    expect(closed).toEqual({
      kind: 'closed',
      state: { kind: 'closed', target, accepted: null, error },
      reject: first,
    });
    if (closed.kind !== 'closed') return;
    expect(phaseOf(closed.state)).toBe('failed');
    expect(opened(closed.state, opening())).toEqual({ kind: 'unchanged' });
    expect(socketLost(closed.state)).toEqual({ kind: 'unchanged' });
    expect(stopped(closed.state)).toEqual({ state: { kind: 'idle', error }, reject: null, release: null });
    expect(connectionClosed(idle, error)).toEqual({ kind: 'unchanged' });
  });

  it('showing replaces what the accepted generation shows, and only when there is one', () => {
    const following: FollowState = { kind: 'following', target, accepted: acceptedAs('f1', 1), error: null };
    const next = { ...acceptedAs('f1', 1).shown, busy: true };
    expect(acceptedOf(moved(showing(following, next)))?.shown).toBe(next);
    expect(showing(begin(target, deferred()), next)).toEqual({ kind: 'unchanged' });
    expect(showing(idle, next)).toEqual({ kind: 'unchanged' });
  });

  it('an error is recorded where a state can carry one; stop keeps it readable', () => {
    const following: FollowState = { kind: 'following', target, accepted: acceptedAs('f1', 1), error: null };
    const error = new Error('broken window');
    expect(errorOf(withError(following, error))).toBe(error);
    const waiting = begin(target, deferred());
    expect(withError(waiting, error)).toBe(waiting);
    expect(stopped(withError(following, error))).toMatchObject({
      state: { kind: 'idle', error },
      release: { followId: 'f1' },
    });
  });
});

type Step =
  | { readonly kind: 'follow' }
  | { readonly kind: 'open' }
  | { readonly kind: 'socketLost' }
  | { readonly kind: 'close' }
  | { readonly kind: 'fail'; readonly current: boolean; readonly disconnected: boolean }
  | { readonly kind: 'accept'; readonly current: boolean; readonly sameFollowId: boolean }
  | { readonly kind: 'show' }
  | { readonly kind: 'error' }
  | { readonly kind: 'stop' };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.constant({ kind: 'follow' } as const),
  fc.constant({ kind: 'open' } as const),
  fc.constant({ kind: 'socketLost' } as const),
  fc.constant({ kind: 'close' } as const),
  fc.record({ kind: fc.constant('fail' as const), current: fc.boolean(), disconnected: fc.boolean() }),
  fc.record({ kind: fc.constant('accept' as const), current: fc.boolean(), sameFollowId: fc.boolean() }),
  fc.constant({ kind: 'show' } as const),
  fc.constant({ kind: 'error' } as const),
  fc.constant({ kind: 'stop' } as const),
);

describe('follow-state: random sequences of inputs', () => {
  it('never leave an invalid state, and every follow() is settled exactly once', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        let state: FollowState = idle;
        let epoch = 1;
        let followIds = 0;
        let generation = 0;
        const deferreds: ReturnType<typeof deferred>[] = [];
        let previousOpening: Opening | null = null;
        for (const s of steps) {
          switch (s.kind) {
            case 'follow':
              if (targetOf(state) !== null) break; // CLIENT_FOLLOW_ACTIVE: nothing changes
              deferreds.push(deferred());
              state = begin(target, deferreds.at(-1)!);
              break;
            case 'open': {
              const o = opening(epoch);
              const result = opened(state, o);
              if (result.kind === 'moved') {
                previousOpening = openingOf(state);
                state = result.state;
                expect(openingOf(state)).toBe(o);
              }
              break;
            }
            case 'socketLost': {
              epoch += 1;
              const result = socketLost(state);
              if (result.kind === 'moved') state = result.state;
              expect(openingOf(state)).toBeNull();
              break;
            }
            case 'close': {
              const result = connectionClosed(state, new Error('closed'));
              if (result.kind === 'closed') {
                result.reject?.reject(new Error('closed'));
                state = result.state;
              }
              break;
            }
            case 'fail': {
              const o = s.current ? openingOf(state) : (previousOpening ?? opening(epoch));
              if (o === null) break;
              const result = openingFailed(state, o, new Error('failed'), s.disconnected);
              if (!s.current) expect(result.kind).toBe('stale');
              if (result.kind === 'stopped') result.reject.reject(new Error('failed'));
              if (result.kind !== 'stale') state = result.state;
              break;
            }
            case 'accept': {
              const o = s.current ? openingOf(state) : (previousOpening ?? opening(epoch));
              if (o === null) break;
              const before = acceptedOf(state);
              const followId =
                s.sameFollowId && before !== null ? before.carrier.followId : `f${++followIds}`;
              const result = snapshotAccepted(state, o, acceptedAs(followId, ++generation, o.epoch));
              if (!s.current) expect(result.kind).toBe('stale');
              if (result.kind === 'accepted') {
                result.resolve?.resolve();
                // Never the follow id now shown; always the previous one when it changed.
                expect(result.release?.followId).not.toBe(followId);
                if (before !== null && before.carrier.followId !== followId)
                  expect(result.release).toBe(before.carrier);
                state = result.state;
              }
              break;
            }
            case 'show': {
              const accepted = acceptedOf(state);
              const result = showing(state, { ...acceptedAs('x', 0).shown, busy: true });
              expect(result.kind === 'moved').toBe(accepted !== null);
              if (result.kind === 'moved') state = result.state;
              break;
            }
            case 'error':
              state = withError(state, new Error('broken'));
              break;
            case 'stop': {
              const result = stopped(state);
              result.reject?.reject(new Error('unfollowed'));
              expect(result.release).toBe(acceptedOf(state)?.carrier ?? null);
              state = result.state;
              break;
            }
          }
          // The invariants of follow-state.ts, after every step.
          const phase = phaseOf(state);
          const accepted = acceptedOf(state);
          if (phase === 'following' || phase === 'refollowing') expect(accepted).not.toBeNull();
          if (phase === 'opening' || phase === 'idle') expect(accepted).toBeNull();
          expect(targetOf(state) === null).toBe(phase === 'idle');
          if (openingOf(state) !== null) expect(['awaitingSnapshot', 'resyncing']).toContain(state.kind);
          const waiting =
            state.kind === 'connecting' || state.kind === 'awaitingSnapshot' ? state.first : null;
          for (const d of deferreds) expect(d.settled).toBe(d === waiting ? 0 : 1);
        }
      }),
      { numRuns: 300 },
    );
  });
});
