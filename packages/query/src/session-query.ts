import {
  isPersistenceError,
  type PreparationLease,
  type SessionPersistence,
  type SessionPreparations,
} from '@strand/persistence';
import type { CacheSubject, ProjectionCache } from '@strand/projection-cache';
import type { ProjectionRegistry, ProjectionSnapshot } from '@strand/projection';
import {
  asOfSeqAt,
  SessionLogOffset,
  SessionSeq,
  type Session,
  type SessionEvent,
  type SessionId,
  type SessionStore,
  defined,
} from '@strand/session';
import { recheckLive } from './live-recheck.js';
import { listCorpus, type CorpusRow } from './corpus.js';
import { checkAborted, toQueryError } from './error-mapping.js';
import { SessionQueryError } from './errors.js';
import { SessionObservation, type ObservationCut } from './observation.js';
import {
  selectsNoEvents,
  validateWindow,
  windowBounds,
  type ObservationWindow,
} from './observation-window.js';

export type ProjectionMode = 'all' | 'none';

export interface ObserveOptions {
  /** `'none'` (default) does no projection work at all; `'all'` computes every registered unit at the cursor. */
  readonly projectionMode?: ProjectionMode;
  readonly signal?: AbortSignal;
  readonly window?: ObservationWindow;
  /**
   * Back a cold cut with the whole prepared log even when a window would allow a tail read, so
   * the observation can later be handed to agent promotion without a second read.
   */
  readonly requirePrepared?: boolean;
  /**
   * `false` for a scan that computes and discards (a subagent listing's cold rung): the cold
   * decode does not stay in the preparation layer's LRU after the observation is disposed.
   */
  readonly retainPrepared?: boolean;
  /**
   * `true` for a view a person opens (`session.follow`): a cold `'all'` cut folded from the whole
   * log writes its cache rows (read-through), so the next view of the session is a tail read.
   * Default false: a computing-and-discarding reader (the subagent listing) writes nothing back.
   */
  readonly fillCache?: boolean;
}

/** Test and diagnostics seams inside the resolution, where real races happen. */
export interface ResolutionHooks {
  /** After a cold borrow settled, before the live re-check. */
  afterColdBorrow?(id: SessionId): void | Promise<void>;
  /** After a live source was chosen, before its cut is published. */
  beforeLivePublish?(id: SessionId): void | Promise<void>;
}

export interface SessionQueryDeps {
  readonly persistence: SessionPersistence;
  readonly preparations: SessionPreparations;
  readonly store: SessionStore;
  readonly registry: ProjectionRegistry;
  /** Optional acceleration: restorable state rows for cold `'all'` observations. */
  readonly cache?: ProjectionCache;
  readonly hooks?: ResolutionHooks;
}

const RESOLUTION_ATTEMPTS = 4;
const END_OF_LOG = SessionSeq(Number.MAX_SAFE_INTEGER);

/**
 * The point-read service: the live-preferred corpus and exact observations. It knows only
 * "projection work: all or none" — no domain vocabulary.
 */
export class SessionQuery {
  readonly #deps: SessionQueryDeps;
  #outstanding = 0;
  readonly #unbind: () => void;

  constructor(deps: SessionQueryDeps) {
    this.#deps = deps;
    // Live 'all' observations read the registry's watermark cache, so every attached session
    // must be tracked: the query service binds the store once.
    this.#unbind = deps.registry.bindStore(deps.store);
  }

  /** Observation leases handed out and not yet disposed (tests and diagnostics). */
  get outstandingLeases(): number {
    return this.#outstanding;
  }

  close(): void {
    this.#unbind();
  }

  listSessions(options: { signal?: AbortSignal } = {}): Promise<CorpusRow[]> {
    return listCorpus(this.#deps.persistence, this.#deps.store, options.signal);
  }

  async observeSession(id: SessionId, options: ObserveOptions = {}): Promise<SessionObservation> {
    validateWindow(options.window, id);
    const { store, hooks } = this.#deps;
    for (let attempt = 0; attempt < RESOLUTION_ATTEMPTS; attempt++) {
      checkAborted(options.signal, id);
      const live = store.get(id);
      if (live !== undefined) {
        const hook = hooks?.beforeLivePublish?.bind(hooks);
        if ((await recheckLive(store, id, live, hook, options.signal)) === 'retry') continue;
        return this.#publish(this.#liveCut(live, options), undefined);
      }
      const cold = await this.#resolveCold(id, options);
      if (cold === 'retry') continue;
      return cold;
    }
    throw new SessionQueryError(
      'SESSION_QUERY_SOURCE_CONFLICT',
      `session ${id} kept changing between live and cold while being observed`,
      {
        sessionId: id,
      },
    );
  }

  /**
   * A failed cold read: `'retry'` when the session is missing from storage because it went live
   * meanwhile (a fresh session is stored with its first append), else the typed query error.
   */
  #coldReadFailed(error: unknown, id: SessionId): 'retry' {
    if (isPersistenceError(error, 'PERSISTENCE_NOT_FOUND') && this.#deps.store.get(id) !== undefined)
      return 'retry';
    throw toQueryError(error, id);
  }

  /** After a cold read settled: attached meanwhile means the live session wins (`recheckLive`). */
  #recheckCold(id: SessionId, options: ObserveOptions): Promise<'current' | 'retry'> {
    const hooks = this.#deps.hooks;
    return recheckLive(this.#deps.store, id, undefined, hooks?.afterColdBorrow?.bind(hooks), options.signal);
  }

  #publish(cut: ObservationCut, preparation: PreparationLease | undefined): SessionObservation {
    return SessionObservation.create(cut, preparation, (delta) => (this.#outstanding += delta));
  }

  #liveCut(session: Session, options: ObserveOptions): ObservationCut {
    const cursor = session.cursor;
    const [start, end] = windowBounds(options.window, cursor);
    let projections: ProjectionSnapshot<string> | undefined;
    if (options.projectionMode === 'all') {
      try {
        projections = this.#deps.registry.snapshot(session);
      } catch (error) {
        throw toQueryError(error, session.id);
      }
      if (projections.asOfSeq !== asOfSeqAt(cursor)) {
        throw new SessionQueryError(
          'SESSION_QUERY_SOURCE_CONFLICT',
          `live projections of ${session.id} are at ${projections.asOfSeq}, the log at ${asOfSeqAt(cursor)}`,
          {
            sessionId: session.id,
          },
        );
      }
    }
    return {
      source: 'live',
      header: session.header,
      inheritedEventCount: session.inheritedEventCount,
      events: Object.freeze(session.events.slice(start, end)),
      firstSeq: start,
      cursor,
      projections,
      revision: undefined,
      incarnation: session.incarnation,
    };
  }

  async #resolveCold(id: SessionId, options: ObserveOptions): Promise<SessionObservation | 'retry'> {
    // The cache rows every cold path below restores from are read synchronously: a store that
    // holds only some sessions in memory (PostgreSQL's mirror) loads this one first.
    if (options.projectionMode === 'all') await this.#deps.cache?.prefetch([id]);
    // Projections only: one scan, which skips the data no unit reads (and is one body read, where
    // the tail cut below would take two).
    const dataTypes = this.#deps.registry.dataTypes();
    if (
      options.projectionMode === 'all' &&
      dataTypes !== undefined &&
      selectsNoEvents(options.window) &&
      options.requirePrepared !== true &&
      !this.#deps.preparations.has(id)
    ) {
      return this.#resolveScanned(id, options, dataTypes);
    }
    if (options.window !== undefined && options.requirePrepared !== true) {
      const tail = await this.#tailCut(id, options);
      if (tail === 'retry') return 'retry';
      if (tail !== undefined) {
        if ((await this.#recheckCold(id, options)) === 'retry') return 'retry';
        return this.#publish(tail, undefined);
      }
    }
    let lease: PreparationLease;
    try {
      lease = await this.#deps.preparations.borrow(id, {
        ...defined({ signal: options.signal }),
        ...(options.retainPrepared === false ? { retain: false } : {}),
      });
    } catch (error) {
      return this.#coldReadFailed(error, id);
    }
    try {
      if ((await this.#recheckCold(id, options)) === 'retry') {
        lease.release();
        return 'retry';
      }
      return this.#publish(this.#preparedCut(lease, options), lease);
    } catch (error) {
      lease.release();
      throw toQueryError(error, id);
    }
  }

  /**
   * A projections-only cold cut (`'all'`, a window of no events) from one persistence `scan`:
   * the data of event types no registered unit reads is never parsed. Nothing is prepared or
   * retained, and the cut carries no events, so the elided ones never leave this method.
   */
  async #resolveScanned(
    id: SessionId,
    options: ObserveOptions,
    dataTypes: ReadonlySet<string>,
  ): Promise<SessionObservation | 'retry'> {
    let cut: ObservationCut;
    try {
      const log = await this.#deps.persistence.scan(id, {
        dataTypes,
        ...defined({ signal: options.signal }),
      });
      // What the disk holds: crash-repair closers reach readers once written (by publication).
      const events = log.events;
      const cursor = SessionLogOffset(events.length);
      cut = {
        source: 'cold',
        header: log.header,
        inheritedEventCount: log.inheritedEventCount,
        events: [],
        firstSeq: cursor,
        cursor,
        projections: this.#coldProjections(log, events, log.events.length, options.fillCache === true),
        revision: log.revision,
        incarnation: log.incarnation,
      };
    } catch (error) {
      return this.#coldReadFailed(error, id);
    }
    if ((await this.#recheckCold(id, options)) === 'retry') return 'retry';
    return this.#publish(cut, undefined);
  }

  /**
   * Every registered unit at the end of a cold log (`events`, repairs included): restored from
   * usable cache rows and folded on, or folded whole.
   */
  #coldProjections(
    subject: CacheSubject & { readonly inheritedEventCount: SessionLogOffset },
    events: readonly SessionEvent[],
    storedEventCount: number,
    fill: boolean,
  ): ProjectionSnapshot<string> {
    const { registry, cache } = this.#deps;
    const cursor = SessionLogOffset(events.length);
    const rows = cache?.cachedStates(subject, subject.inheritedEventCount, {
      cursor: SessionLogOffset(storedEventCount),
    });
    if (rows !== undefined && Object.keys(rows).length > 0) {
      const from = registry.restoreStart(rows, cursor);
      const restored = registry.restore({
        header: subject.header,
        inheritedEventCount: subject.inheritedEventCount,
        rows,
        events: events.slice(from),
        from,
      });
      if (restored.kind === 'restored') return restored.projection.snapshot;
    }
    const folded = registry.foldAll(subject.header, events, subject.inheritedEventCount);
    // Read-through (`fillCache`): a log without rows (written by an import, a corpus writer,
    // another tool) gets them now, so its next cold view is a tail read instead of another
    // whole-log fold. Only a cut the disk holds (no synthesized repairs), and never a verdict: a
    // failed write is a miss later.
    if (fill && cache !== undefined && events.length === storedEventCount) {
      try {
        cache.put(subject, subject.inheritedEventCount, folded.rows);
      } catch {
        // PROJECTION_CACHE_WRITE_FAILED / _CLOSED: the cache is an acceleration, the fold stands.
      }
    }
    return folded.snapshot;
  }

  #preparedCut(lease: PreparationLease, options: ObserveOptions): ObservationCut {
    const prepared = lease.prepared;
    // What the disk holds: the prepared crash-repair closers are written by publication, and
    // reach readers then, as ordinary appends.
    const stored =
      prepared.storedEventCount === prepared.events.length
        ? prepared.events
        : Object.freeze(prepared.events.slice(0, prepared.storedEventCount));
    const cursor = SessionLogOffset(stored.length);
    const [start, end] = windowBounds(options.window, cursor);
    const projections =
      options.projectionMode === 'all'
        ? this.#coldProjections(prepared, stored, stored.length, options.fillCache === true)
        : undefined;
    return {
      source: 'cold',
      header: prepared.header,
      inheritedEventCount: prepared.inheritedEventCount,
      events: start === 0 && end === stored.length ? stored : Object.freeze(stored.slice(start, end)),
      firstSeq: start,
      cursor,
      projections,
      revision: prepared.revision,
      incarnation: prepared.incarnation,
    };
  }

  /**
   * A windowed cold cut read through `readFrom`: the window and, for `'all'`, the events after
   * the projection cache's rows — instead of decoding the whole log. Undefined when that cannot
   * give an exact cut (no usable rows, a suffix that cannot tell the crash repairs, a log that
   * changed between the two reads); the caller then takes the prepared path.
   */
  async #tailCut(id: SessionId, options: ObserveOptions): Promise<ObservationCut | undefined | 'retry'> {
    const { persistence, registry, cache } = this.#deps;
    if (options.projectionMode === 'all' && cache === undefined) return undefined;
    const signalOption = defined({ signal: options.signal });
    try {
      const probe = await persistence.readFrom(id, END_OF_LOG, signalOption);
      const storedCursor = probe.cursor;
      let from = windowBounds(options.window, storedCursor)[0];
      let rows;
      if (options.projectionMode === 'all') {
        rows = cache!.cachedStates(probe, probe.inheritedEventCount, { cursor: storedCursor });
        if (Object.keys(rows).length === 0) return undefined;
        from = Math.min(from, registry.restoreStart(rows, storedCursor));
      }
      const suffix = await persistence.readFrom(id, SessionSeq(from), signalOption);
      if (suffix.revision !== probe.revision || suffix.cursor !== storedCursor) return undefined;
      // What the disk holds: crash-repair closers reach readers once written (by publication).
      const events = suffix.events;
      const cursor = SessionLogOffset(storedCursor);
      let projections: ProjectionSnapshot<string> | undefined;
      if (rows !== undefined) {
        const restored = registry.restore({
          header: suffix.header,
          inheritedEventCount: suffix.inheritedEventCount,
          rows,
          events,
          from: SessionLogOffset(from),
        });
        if (restored.kind !== 'restored') return undefined;
        projections = restored.projection.snapshot;
      }
      const [start, end] = windowBounds(options.window, cursor);
      return {
        source: 'cold',
        header: suffix.header,
        inheritedEventCount: suffix.inheritedEventCount,
        events: Object.freeze(events.slice(start - from, end - from)),
        firstSeq: start,
        cursor,
        projections,
        revision: suffix.revision,
        incarnation: suffix.incarnation,
      };
    } catch (error) {
      return this.#coldReadFailed(error, id);
    }
  }
}
