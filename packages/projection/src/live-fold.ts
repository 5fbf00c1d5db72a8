import type { Session, SessionEvent, SessionSeq } from '@strand/session';
import { offset } from './brands.js';
import { restoreUnits } from './cold.js';
import { isProjectionError, ProjectionError, unitFailure } from './errors.js';
import { foldUnit } from './fold.js';
import type { AnyProjectionUnit, CheckpointRows } from './types.js';

/** A key whose state reference changed in a batch: `seq` is the last event that changed it. */
export interface StateChange {
  readonly unit: AnyProjectionUnit;
  readonly before: unknown;
  readonly after: unknown;
  readonly seq: SessionSeq;
}

export type BatchResult =
  | { readonly kind: 'folded'; readonly changes: readonly StateChange[] }
  | { readonly kind: 'skipped' }
  | { readonly kind: 'failed'; readonly error: ProjectionError };

/**
 * The fold state of one live session: every registered unit's state at `cut` — the watermark
 * cache. It advances synchronously with appends, so reading it costs no log read. Once a unit
 * throws, the fold is `failure` and stops advancing (its states are no longer trustworthy); only
 * a refold (after the culprit is unregistered) revives it.
 */
export class LiveFold {
  readonly session: Session;
  readonly states = new Map<string, unknown>();
  cut = 0;
  failure: ProjectionError | undefined = undefined;

  constructor(session: Session) {
    this.session = session;
  }

  /**
   * Folds the session's in-memory events (never a log read) with every unit: from usable `seed`
   * rows (only the events after their cut), otherwise from init.
   */
  refold(units: readonly AnyProjectionUnit[], seed?: CheckpointRows): ProjectionError | undefined {
    if (seed !== undefined) return this.#restore(units, seed);
    this.states.clear();
    this.failure = undefined;
    this.cut = this.session.events.length;
    for (const unit of units) {
      const error = this.addUnit(unit);
      if (error !== undefined) return error;
    }
    return undefined;
  }

  /** Computes a unit registered after tracking began, up to the current cut. */
  addUnit(unit: AnyProjectionUnit): ProjectionError | undefined {
    if (this.failure !== undefined) return undefined;
    const sessionId = this.session.id;
    let initial: unknown;
    try {
      initial = unit.init(this.session.header, { inheritedEventCount: this.session.inheritedEventCount });
    } catch (cause) {
      return this.#fail(unitFailure(cause, { key: unit.key, phase: 'init', sessionId }));
    }
    const events = this.session.events;
    const folded = foldUnit(unit, initial, events, 0, this.cut);
    if (folded.kind === 'threw') {
      return this.#fail(
        unitFailure(folded.cause, {
          key: unit.key,
          phase: 'apply',
          seq: events[folded.index]!.seq,
          sessionId,
        }),
      );
    }
    this.states.set(unit.key, folded.state);
    return undefined;
  }

  /**
   * Folds an appended batch with every unit. Events below `cut` are skipped: a fold started from
   * inside another append listener has already seen them.
   */
  applyBatch(units: readonly AnyProjectionUnit[], batch: readonly SessionEvent[]): BatchResult {
    if (this.failure !== undefined) return { kind: 'skipped' };
    let start = 0;
    while (start < batch.length && batch[start]!.seq < this.cut) start++;
    if (start === batch.length) return { kind: 'skipped' };
    const changes: StateChange[] = [];
    for (const unit of units) {
      const before = this.states.get(unit.key);
      const folded = foldUnit(unit, before, batch, start);
      if (folded.kind === 'threw') {
        const seq = batch[folded.index]!.seq;
        return {
          kind: 'failed',
          error: this.#fail(
            unitFailure(folded.cause, { key: unit.key, phase: 'apply', seq, sessionId: this.session.id }),
          ),
        };
      }
      if (folded.lastChange >= 0)
        changes.push({ unit, before, after: folded.state, seq: batch[folded.lastChange]!.seq });
    }
    for (const change of changes) this.states.set(change.unit.key, change.after);
    this.cut = batch[batch.length - 1]!.seq + 1;
    return { kind: 'folded', changes };
  }

  checkpoint(units: readonly AnyProjectionUnit[]): CheckpointRows {
    const cut = offset(this.cut);
    const rows: CheckpointRows = Object.fromEntries(
      units.map((unit) => [
        unit.key,
        { stateVersion: unit.stateVersion, cut, state: this.states.get(unit.key) },
      ]),
    );
    return rows;
  }

  #restore(units: readonly AnyProjectionUnit[], seed: CheckpointRows): ProjectionError | undefined {
    this.states.clear();
    this.failure = undefined;
    const events = this.session.events;
    this.cut = events.length;
    try {
      const result = restoreUnits(units, {
        header: this.session.header,
        inheritedEventCount: this.session.inheritedEventCount,
        rows: seed,
        events,
      });
      // `from` is 0, so every unit without a usable row folds from init: `needs-prefix` cannot happen.
      if (result.kind === 'restored')
        for (const [key, row] of Object.entries(result.projection.rows)) this.states.set(key, row.state);
      return undefined;
    } catch (error) {
      // restoreUnits throws only ProjectionError; the wrap keeps any surprise typed all the same.
      const failure = isProjectionError(error)
        ? error
        : new ProjectionError('PROJECTION_FAILED', `restoring the fold of ${this.session.id} failed`, {
            cause: error,
          });
      return this.#fail(failure);
    }
  }

  #fail(error: ProjectionError): ProjectionError {
    this.failure = error;
    return error;
  }
}
