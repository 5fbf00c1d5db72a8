import type { Session, SessionEvent, SessionId, SessionSeq } from '@strand/session';
import { ProjectionError, unitFailure } from './errors.js';
import { jsonEqual } from '@strand/session';
import type { StateChange } from './live-fold.js';
import type { CheckpointRows } from './types.js';

/** Called only when a key's *viewed* value changed; `seq` is the last event that changed its state. */
export type ProjectionChangeListener = (
  sessionId: SessionId,
  key: string,
  value: unknown,
  seq: SessionSeq,
) => void;

/**
 * What happens to a live fold, in order, for consumers that act on fold progress (the cache write
 * policy). `folded` comes after the batch is in the fold state, so `checkpoint` already covers it;
 * `untracked` carries the final checkpoint because the fold state is gone once it is delivered.
 */
export type TrackingEvent =
  | { readonly kind: 'tracked'; readonly session: Session }
  | { readonly kind: 'folded'; readonly session: Session; readonly events: readonly SessionEvent[] }
  | { readonly kind: 'failed'; readonly session: Session; readonly error: ProjectionError }
  | {
      readonly kind: 'untracked';
      readonly session: Session;
      readonly checkpoint: CheckpointRows | undefined;
    };

export type TrackingListener = (event: TrackingEvent) => void;

/**
 * The registry's two outward feeds. Every listener call is contained: a throwing listener is
 * reported as `PROJECTION_LISTENER_FAILED` and the others still run — a listener can never fail the
 * append that fed it.
 */
export class Feeds {
  readonly #changeListeners = new Set<ProjectionChangeListener>();
  readonly #trackingListeners = new Set<TrackingListener>();
  readonly #reportError: (error: ProjectionError) => void;

  constructor(reportError: (error: ProjectionError) => void) {
    this.#reportError = reportError;
  }

  onChanged(listener: ProjectionChangeListener): () => void {
    this.#changeListeners.add(listener);
    return () => this.#changeListeners.delete(listener);
  }

  onTracking(listener: TrackingListener): () => void {
    this.#trackingListeners.add(listener);
    return () => this.#trackingListeners.delete(listener);
  }

  /**
   * Reports each changed state whose *viewed* value differs from the previous view. Views are
   * recomputed from the two states rather than cached (seed: no second cache of viewed values), and
   * only when someone listens.
   */
  emitChanges(sessionId: SessionId, changes: readonly StateChange[]): void {
    if (this.#changeListeners.size === 0) return;
    for (const { unit, before, after, seq } of changes) {
      let previous: unknown;
      let value: unknown;
      try {
        previous = unit.view(before);
        value = unit.view(after);
      } catch (cause) {
        // The next snapshot throws PROJECTION_FAILED for this state; there is no value to push.
        this.#reportError(unitFailure(cause, { key: unit.key, phase: 'view', seq, sessionId }));
        continue;
      }
      if (jsonEqual(previous, value)) continue;
      for (const listener of this.#changeListeners) {
        try {
          listener(sessionId, unit.key, value, seq);
        } catch (cause) {
          this.#reportError(
            new ProjectionError('PROJECTION_LISTENER_FAILED', `an onChanged listener threw for ${unit.key}`, {
              cause,
              details: { sessionId, key: unit.key, seq },
            }),
          );
        }
      }
    }
  }

  emitTracking(event: TrackingEvent): void {
    for (const listener of this.#trackingListeners) {
      try {
        listener(event);
      } catch (cause) {
        this.#reportError(
          new ProjectionError('PROJECTION_LISTENER_FAILED', `an onTracking listener threw on ${event.kind}`, {
            cause,
            details: { sessionId: event.session.id },
          }),
        );
      }
    }
  }
}
