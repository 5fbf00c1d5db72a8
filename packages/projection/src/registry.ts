import type { Session, SessionEvent, SessionHeader, SessionLogOffset, StoreListener } from '@strand/session';
import { reportTo, silentLogger, type Logger } from '@strand/session';
import {
  foldAllUnits,
  restoreStartOf,
  restoreUnits,
  type ColdProjection,
  type RestoreInput,
  type RestoreResult,
} from './cold.js';
import { ProjectionError, unitFailure } from './errors.js';
import { Feeds, type ProjectionChangeListener, type TrackingListener } from './feeds.js';
import { LiveFold } from './live-fold.js';
import { checkUnit } from './unit-check.js';
import type {
  AnyProjectionUnit,
  CheckpointRows,
  ProjectionKey,
  ProjectionSnapshot,
  ProjectionUnitFor,
} from './types.js';

/** The parts of `SessionStore` the registry follows. */
export interface LiveSessionSource {
  list(): Session[];
  subscribe(listener: StoreListener): () => void;
}

export interface ProjectionRegistryOptions {
  /** Units to register at construction, in order. */
  readonly units?: readonly AnyProjectionUnit[];
  /** Where contained failures go (a unit that threw on append, a listener that threw). Default: `logger`. */
  readonly reportError?: (error: ProjectionError) => void;
  /** Default: `silentLogger`. */
  readonly logger?: Logger;
}

interface Tracked {
  readonly fold: LiveFold;
  readonly unsubscribe: () => void;
}

/**
 * The registry: the one place fold rules are registered, and the owner of fold state.
 *
 * - Each key is registered once; the same unit again is a no-op, another unit or stateVersion
 *   under the same key is `PROJECTION_KEY_CONFLICT`.
 * - Live sessions are tracked (explicitly or by `bindStore`): their fold state advances
 *   synchronously inside every append, so `snapshot` never reads the log.
 * - Cold prefixes are computed by `foldAll`/`restore`: every registered unit or (by throwing) none.
 * - A unit that throws never fails or undoes an append and never escapes as an untyped exception:
 *   that session's fold is marked failed and `snapshot`/`checkpoint` then throw `PROJECTION_FAILED`.
 */
export class ProjectionRegistry {
  // Replaced (never mutated) on register/unregister, so a fold in progress iterates a stable list.
  #units: readonly AnyProjectionUnit[] = [];
  #dataTypes: ReadonlySet<string> | undefined = new Set();
  readonly #byKey = new Map<string, AnyProjectionUnit>();
  readonly #tracked = new Map<Session, Tracked>();
  readonly #reportError: (error: ProjectionError) => void;
  readonly #feeds: Feeds;

  constructor(options: ProjectionRegistryOptions = {}) {
    this.#reportError =
      options.reportError ?? reportTo(options.logger ?? silentLogger, 'a projection failure was contained');
    this.#feeds = new Feeds(this.#reportError);
    for (const unit of options.units ?? []) this.register(unit);
  }

  /** Registers a unit; returns a disposer that unregisters it (if it is still the registered one). */
  register<K extends string>(unit: ProjectionUnitFor<K>): () => void {
    const any = unit as AnyProjectionUnit;
    checkUnit(any);
    const existing = this.#byKey.get(any.key);
    if (existing !== undefined && existing !== any) {
      const why =
        existing.stateVersion === any.stateVersion ? 'another unit' : `stateVersion ${existing.stateVersion}`;
      throw new ProjectionError(
        'PROJECTION_KEY_CONFLICT',
        `projection key ${any.key} is already registered with ${why}`,
        {
          details: { key: any.key },
        },
      );
    }
    if (existing === undefined) {
      this.#byKey.set(any.key, any);
      this.#units = [...this.#units, any];
      this.#dataTypes = dataTypesOf(this.#units);
      for (const { fold } of this.#tracked.values()) this.#noteFailure(fold, fold.addUnit(any));
    }
    return () => {
      if (this.#byKey.get(any.key) === any) this.unregister(any.key);
    };
  }

  /**
   * Removes a key and its state from every live fold. A fold that had failed because of this very
   * unit is refolded from the session's in-memory events, so replacing a broken unit revives it.
   */
  unregister(key: string): boolean {
    if (!this.#byKey.delete(key)) return false;
    this.#units = this.#units.filter((unit) => unit.key !== key);
    this.#dataTypes = dataTypesOf(this.#units);
    for (const { fold } of this.#tracked.values()) {
      fold.states.delete(key);
      if (fold.failure?.details.key === key) this.#noteFailure(fold, fold.refold(this.#units));
    }
    return true;
  }

  has(key: string): boolean {
    return this.#byKey.has(key);
  }

  /** Registered keys, in registration order. */
  keys(): string[] {
    return this.#units.map((unit) => unit.key);
  }

  /**
   * The event types whose data some registered unit reads — what a cold fold must parse; every
   * other event can be folded from its envelope. Undefined when a unit does not declare
   * `dataReads` (then every event's data is needed).
   */
  dataTypes(): ReadonlySet<string> | undefined {
    return this.#dataTypes;
  }

  /** The registered unit for `key` (the cache reads its stateVersion and view). */
  unit(key: string): AnyProjectionUnit | undefined {
    return this.#byKey.get(key);
  }

  /**
   * Starts the watermark cache of a live session: folds its in-memory events once, then every
   * append. Idempotent. `seed` rows (e.g. the cold projection a promoted session was observed with)
   * spare that first fold: only the events after each usable row's cut are folded.
   */
  track(session: Session, options: { readonly seed?: CheckpointRows } = {}): void {
    if (this.#tracked.has(session)) return;
    const fold = new LiveFold(session);
    const failure = fold.refold(this.#units, options.seed);
    const unsubscribe = session.subscribe((batch) => this.#onAppend(fold, batch));
    this.#tracked.set(session, { fold, unsubscribe });
    this.#feeds.emitTracking({ kind: 'tracked', session });
    this.#noteFailure(fold, failure);
  }

  /** Stops tracking and drops the fold state; `onTracking` receives the final checkpoint first. */
  untrack(session: Session): boolean {
    const tracked = this.#tracked.get(session);
    if (tracked === undefined) return false;
    tracked.unsubscribe();
    this.#tracked.delete(session);
    const checkpoint = tracked.fold.failure === undefined ? tracked.fold.checkpoint(this.#units) : undefined;
    this.#feeds.emitTracking({ kind: 'untracked', session, checkpoint });
    return true;
  }

  isTracked(session: Session): boolean {
    return this.#tracked.has(session);
  }

  /**
   * Tracks every session attached to `source` (a `SessionStore`) now and later, and untracks it on
   * detach. The returned disposer stops following and untracks what this binding tracked.
   */
  bindStore(source: LiveSessionSource): () => void {
    const bound = new Set<Session>();
    const unsubscribe = source.subscribe((change) => {
      if (change.kind === 'attached') {
        bound.add(change.session);
        this.track(change.session);
      } else {
        bound.delete(change.session);
        this.untrack(change.session);
      }
    });
    for (const session of source.list()) {
      bound.add(session);
      this.track(session);
    }
    return () => {
      unsubscribe();
      for (const session of bound) this.untrack(session);
      bound.clear();
    };
  }

  /**
   * The values of `keys` (default: every registered key) at the fold's cut, with zero log reads.
   * Unregistered keys are absent (capability absent). Throws `PROJECTION_NOT_TRACKED`, or
   * `PROJECTION_FAILED` when the session's fold failed or a requested unit's `view` throws.
   */
  snapshot<K extends string = ProjectionKey>(session: Session, keys?: readonly K[]): ProjectionSnapshot<K> {
    const fold = this.#foldOf(session);
    if (fold.failure !== undefined) throw fold.failure;
    const units = keys === undefined ? this.#units : this.#unitsOf(keys);
    const values: [string, unknown][] = [];
    for (const unit of units) {
      try {
        values.push([unit.key, unit.view(fold.states.get(unit.key))]);
      } catch (cause) {
        throw unitFailure(cause, { key: unit.key, phase: 'view', sessionId: session.id });
      }
    }
    return { asOfSeq: fold.cut - 1, values: Object.fromEntries(values) as ProjectionSnapshot<K>['values'] };
  }

  /** Restorable rows of every registered unit at the fold's cut. States are shared, not copied: treat them as immutable. */
  checkpoint(session: Session): CheckpointRows {
    const fold = this.#foldOf(session);
    if (fold.failure !== undefined) throw fold.failure;
    return fold.checkpoint(this.#units);
  }

  /** Listens for changed client values of live sessions (push frames); returns an unsubscribe. */
  onChanged(listener: ProjectionChangeListener): () => void {
    return this.#feeds.onChanged(listener);
  }

  /** Listens for live fold progress (tracked, folded, failed, untracked); returns an unsubscribe. */
  onTracking(listener: TrackingListener): () => void {
    return this.#feeds.onTracking(listener);
  }

  /**
   * Every registered unit over a whole cold log (`events` from seq 0). Throws `PROJECTION_FAILED`:
   * all or none. A seeded session's caller passes its `inheritedEventCount`.
   */
  foldAll<K extends string = ProjectionKey>(
    header: SessionHeader,
    events: readonly SessionEvent[],
    inheritedEventCount = 0,
  ): ColdProjection<K> {
    return foldAllUnits<K>(this.#units, header, events, inheritedEventCount);
  }

  /** Seeds units from usable checkpoint rows and folds only the rest; see `RestoreResult`. */
  restore<K extends string = ProjectionKey>(input: RestoreInput): RestoreResult<K> {
    return restoreUnits<K>(this.#units, input);
  }

  /** Where a suffix read for `restore` must start, given rows and the log's length. */
  restoreStart(rows: CheckpointRows, cursor: SessionLogOffset): SessionLogOffset {
    return restoreStartOf(this.#units, rows, cursor);
  }

  #foldOf(session: Session): LiveFold {
    const tracked = this.#tracked.get(session);
    if (tracked === undefined) {
      throw new ProjectionError(
        'PROJECTION_NOT_TRACKED',
        `session ${session.id} is not tracked by this projection registry`,
        {
          details: { sessionId: session.id },
        },
      );
    }
    return tracked.fold;
  }

  #unitsOf(keys: readonly string[]): AnyProjectionUnit[] {
    const units: AnyProjectionUnit[] = [];
    for (const key of keys) {
      const unit = this.#byKey.get(key);
      if (unit !== undefined) units.push(unit);
    }
    return units;
  }

  #onAppend(fold: LiveFold, batch: readonly SessionEvent[]): void {
    const result = fold.applyBatch(this.#units, batch);
    switch (result.kind) {
      case 'skipped':
        return;
      case 'failed':
        this.#noteFailure(fold, result.error);
        return;
      case 'folded':
        if (result.changes.length > 0) this.#feeds.emitChanges(fold.session.id, result.changes);
        this.#feeds.emitTracking({ kind: 'folded', session: fold.session, events: batch });
        return;
      default:
        return result satisfies never;
    }
  }

  #noteFailure(fold: LiveFold, error: ProjectionError | undefined): void {
    if (error === undefined) return;
    this.#reportError(error);
    this.#feeds.emitTracking({ kind: 'failed', session: fold.session, error });
  }
}

function dataTypesOf(units: readonly AnyProjectionUnit[]): ReadonlySet<string> | undefined {
  const types = new Set<string>();
  for (const unit of units) {
    if (unit.dataReads === undefined) return undefined;
    for (const type of unit.dataReads) types.add(type);
  }
  return types;
}
