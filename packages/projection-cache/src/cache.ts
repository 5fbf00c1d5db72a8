import type {
  AnyProjectionUnit,
  CheckpointRow,
  CheckpointRows,
  ProjectionKey,
  ProjectionRegistry,
  ProjectionSnapshot,
} from '@strand/projection';
import { SessionLogOffset, silentLogger, type Logger, type SessionId, defined } from '@strand/session';
import { ProjectionCacheError } from './errors.js';
import type { ListIndexStore } from './list-index/list-index-store.js';
import {
  LIST_HINT_KEYS,
  type ListIndexRow,
  type ListRowHints,
  type ListRowUsage,
} from './list-index/list-row.js';
import type { CacheRow, CacheRowStore, KeyRow } from './row-store.js';
import { SqliteCacheRowStore } from './sqlite-row-store.js';
import type { CacheSubject } from './subject.js';

/** The unit whose hours the list index keeps beside each row (`usage_hours`). */
const USAGE_KEY = 'usage';

const KEY = 0;
const STATE_VERSION = 1;
const CUT = 2;
const STATE = 3;

export interface CacheReadOptions {
  /** The log's length when the caller knows it: a row with a cut beyond it is a miss. */
  readonly cursor?: SessionLogOffset;
}

export interface ProjectionCacheOptions {
  readonly logger?: Logger;
}

/**
 * Told after a session's list row was written or dropped (the write returned): its id, and its
 * header when the write carried one (a drop does not).
 */
export type ListRowListener = (sessionId: string, header: ListIndexRow['header'] | undefined) => void;

export interface OpenProjectionCacheOptions extends ProjectionCacheOptions {
  /** A database file, or `':memory:'`. */
  readonly path: string;
  readonly registry: ProjectionRegistry;
}

/**
 * Persisted checkpoint rows: an optional acceleration with no authority over any value.
 *
 * Reads (`cachedSnapshot`, `cachedStates`) do zero log I/O and never throw: a row with another
 * stateVersion, another identity, a cut beyond the caller's cursor, unparsable JSON, or a state
 * the registered unit's `view` throws on is a miss — never an error and never a verdict; the
 * caller falls through to an exact read. Rows are interpreted only through the registry's current
 * units, so a row for an unregistered key is never served. Where rows live is the `CacheRowStore`'s
 * business (SQLite by default); these rules are the same for every store.
 */
export class ProjectionCache {
  readonly #store: CacheRowStore;
  readonly #registry: ProjectionRegistry;
  readonly #logger: Logger;
  readonly #listListeners = new Set<ListRowListener>();
  /** List-row changes of the batch in progress (`batch`), told once it committed. */
  #heldChanges: [string, ListIndexRow['header'] | undefined][] | undefined;

  constructor(store: CacheRowStore, registry: ProjectionRegistry, options: ProjectionCacheOptions = {}) {
    this.#store = store;
    this.#registry = registry;
    this.#logger = options.logger ?? silentLogger;
  }

  /** A cache over a SQLite database file (the embedded default). */
  static open(options: OpenProjectionCacheOptions): ProjectionCache {
    let store: SqliteCacheRowStore;
    try {
      store = SqliteCacheRowStore.open(options.path);
    } catch (error) {
      if (error instanceof ProjectionCacheError) throw error;
      throw new ProjectionCacheError(
        'PROJECTION_CACHE_OPEN_FAILED',
        `cannot open projection cache ${options.path}`,
        { cause: error },
      );
    }
    return new ProjectionCache(store, options.registry, defined({ logger: options.logger }));
  }

  /**
   * Client values of `keys` (default: every registered key) from rows of this identity, or
   * `undefined` when no key is served. Keys that miss are absent (a list hint's "unknown"). `asOfSeq`
   * is the lowest served row's cut − 1: values from rows at different cuts are labelled with the
   * oldest, so a client's higher-seq-wins store never lets them override fresher values.
   */
  cachedSnapshot<K extends string = ProjectionKey>(
    subject: CacheSubject,
    inheritedCut: SessionLogOffset,
    keys?: readonly K[],
    options: CacheReadOptions = {},
  ): ProjectionSnapshot<K> | undefined {
    // One pass over the identity's rows (this runs per listed session: keep it allocation-light).
    const values: Record<string, unknown> = {};
    let served = 0;
    let lowestCut = Number.POSITIVE_INFINITY;
    for (const row of this.#read(subject, inheritedCut)) {
      const key = row[KEY];
      if (keys !== undefined && !keys.includes(key as K)) continue;
      const unit = this.#registry.unit(key);
      if (unit === undefined) continue;
      const decoded = this.#decode(subject, unit, row, options);
      if (decoded === undefined) continue;
      let value: unknown;
      try {
        value = unit.view(decoded);
      } catch (error) {
        this.#miss(subject, key, 'view threw on the stored state', error);
        continue;
      }
      // Plain assignment is safe: a registered key is never `__proto__` (checkUnit refuses it).
      values[key] = value;
      served++;
      if (row[CUT] < lowestCut) lowestCut = row[CUT];
    }
    if (served === 0) return undefined;
    return { asOfSeq: lowestCut - 1, values: values as ProjectionSnapshot<K>['values'] };
  }

  /**
   * One key's client value for many sessions at once, by session id — a read over the corpus
   * (usage summed over every session) — under `cachedSnapshot`'s rules: each from a row of that
   * subject's identity and the unit's stateVersion; a miss is absent. One store read for all when
   * the store can (`readKey`), else one per subject.
   */
  cachedValues(
    key: string,
    subjects: readonly CacheSubject[],
    inheritedCut: SessionLogOffset = SessionLogOffset(0),
  ): Map<string, unknown> {
    const values = new Map<string, unknown>();
    const unit = this.#registry.unit(key);
    if (unit === undefined || subjects.length === 0 || !this.#store.isOpen) return values;
    const rows = this.#keyRows(key);
    if (rows === undefined) {
      for (const subject of subjects) {
        const hit = this.cachedSnapshot(subject, inheritedCut, [key]);
        if (hit !== undefined && Object.hasOwn(hit.values, key))
          values.set(subject.header.id, hit.values[key]);
      }
      return values;
    }
    const wanted = new Map<string, CacheSubject>();
    for (const subject of subjects) wanted.set(subject.header.id, subject);
    for (const [sessionId, incarnation, cut0, stateVersion, cut, state] of rows) {
      const subject = wanted.get(sessionId);
      if (subject === undefined || subject.incarnation !== incarnation || cut0 !== inheritedCut) continue;
      const decoded = this.#decode(subject, unit, [key, stateVersion, cut, state], {});
      if (decoded === undefined) continue;
      try {
        values.set(sessionId, unit.view(decoded));
      } catch (error) {
        this.#miss(subject, key, 'view threw on the stored state', error);
      }
    }
    return values;
  }

  /**
   * Readies the rows of these sessions for the synchronous reads that follow: a store that holds
   * only some sessions in memory (PostgreSQL's bounded mirror) loads the others; SQLite has nothing
   * to do. Callers in an asynchronous step await it before reading a page or a tree of sessions;
   * without it a read may miss (never serve a wrong row). Never rejects.
   */
  async prefetch(sessionIds: readonly string[]): Promise<void> {
    if (this.#store.prefetch === undefined || !this.#store.isOpen || sessionIds.length === 0) return;
    try {
      await this.#store.prefetch(sessionIds);
    } catch (error) {
      this.#logger.warn('prefetching cache rows failed: reads of those sessions miss', {
        sessions: sessionIds.length,
        error,
      });
    }
  }

  /**
   * Restorable state rows of this identity, for an exact cold read that folds only the events after
   * a row's cut (`ProjectionRegistry.restore`). Rows that would be misses for `cachedSnapshot`
   * (including a state whose view throws) are left out.
   */
  cachedStates(
    subject: CacheSubject,
    inheritedCut: SessionLogOffset,
    options: CacheReadOptions = {},
  ): CheckpointRows {
    const rows: Record<string, CheckpointRow> = {};
    for (const row of this.#read(subject, inheritedCut)) {
      const key = row[KEY];
      const unit = this.#registry.unit(key);
      if (unit === undefined) continue;
      const state = this.#decode(subject, unit, row, options);
      if (state === undefined) continue;
      try {
        unit.view(state);
      } catch (error) {
        this.#miss(subject, key, 'view threw on the stored state', error);
        continue;
      }
      rows[key] = { stateVersion: row[STATE_VERSION], cut: row[CUT] as SessionLogOffset, state };
    }
    return rows;
  }

  /**
   * Writes rows for this identity in one step and drops the rows of every other identity of the
   * same session id (a recreated session never inherits them). The caller guarantees the log holds
   * every row's cut durably (the write policy flushes first). Throws `PROJECTION_CACHE_WRITE_FAILED`
   * / `PROJECTION_CACHE_CLOSED`; a store that writes behind reports its later failures through its
   * own logger instead.
   */
  put(subject: CacheSubject, inheritedCut: SessionLogOffset, rows: CheckpointRows): void {
    const id = subject.header.id;
    this.#refuseWhenClosed(id);
    try {
      const encoded = Object.entries(rows).map(([key, row]): CacheRow => {
        const state = JSON.stringify(row.state);
        if (state === undefined) throw new TypeError(`state of ${key} is not JSON`);
        return [key, row.stateVersion, row.cut, state];
      });
      const listRow = this.#listRow(subject, rows);
      this.#store.write(id, subject.incarnation, inheritedCut, encoded, listRow);
      if (listRow !== undefined) this.#listChanged(id, subject.header);
    } catch (error) {
      throw new ProjectionCacheError(
        'PROJECTION_CACHE_WRITE_FAILED',
        `cannot write projection cache rows of ${id}`,
        {
          cause: error,
          sessionId: id,
        },
      );
    }
  }

  /**
   * Runs `work` — `put`s and `forget`s of many sessions — as one step of the store where it can
   * (one SQLite commit), else as the separate writes it makes. A `put` that throws inside still
   * throws there (its caller may catch it and go on); a throw out of `work` undoes the batch where
   * the store batches. List listeners are told of the batch's writes once it is done (committed),
   * not during it — of none that a throw undid.
   */
  batch<T>(work: () => T): T {
    if (this.#heldChanges !== undefined) return work(); // a batch inside a batch is part of it
    // List listeners hear of a row once it is committed: held until the batch's one commit (or,
    // for a store that writes each step on its own, until the work is done).
    const held: [string, ListIndexRow['header'] | undefined][] = [];
    const atomic = this.#store.batch !== undefined && this.#store.isOpen;
    this.#heldChanges = held;
    let undone = false;
    try {
      return atomic ? this.#store.batch!(work) : work();
    } catch (error) {
      undone = atomic;
      throw error;
    } finally {
      this.#heldChanges = undefined;
      // Writes a throw undid are no change; a store that wrote each step keeps them.
      if (!undone) for (const [sessionId, header] of held) this.#listChanged(sessionId, header);
    }
  }

  /** Drops every row of a session id (it was deleted). Throws like `put`. */
  forget(sessionId: SessionId): void {
    this.#refuseWhenClosed(sessionId);
    try {
      this.#store.forget(sessionId);
      // The store keeps the list row but makes its hints unknown: the row changed.
      if (this.#store.listIndex !== undefined) this.#listChanged(sessionId, undefined);
    } catch (error) {
      throw new ProjectionCacheError(
        'PROJECTION_CACHE_WRITE_FAILED',
        `cannot forget projection cache rows of ${sessionId}`,
        { cause: error, sessionId },
      );
    }
  }

  /**
   * The list index the store keeps beside the rows (`put` writes a session's list row with its
   * rows), or `undefined` when the store keeps none or is closed.
   */
  get listIndex(): ListIndexStore | undefined {
    return this.#store.isOpen ? this.#store.listIndex : undefined;
  }

  /**
   * Gives a session its list row at once (created, imported, found missing): header facts, with
   * `hints` (and `usage`) when the caller folded them at a durable cut. Never erases hints or usage
   * already stored for the same incarnation. Throws like `put`.
   */
  noteSession(subject: CacheSubject, hints?: ListRowHints, usage?: ListRowUsage): void {
    const index = this.listIndex;
    this.#refuseWhenClosed(subject.header.id);
    if (index === undefined) return;
    this.#writeList(subject.header.id, () =>
      index.upsert({ header: subject.header, incarnation: subject.incarnation, hints, usage }),
    );
    this.#listChanged(subject.header.id, subject.header);
  }

  /** A deleted session: drops its rows and its list row. Throws like `put`. */
  dropSession(sessionId: SessionId): void {
    this.forget(sessionId);
    const index = this.listIndex;
    if (index !== undefined) this.#writeList(sessionId, () => index.forget(sessionId));
  }

  /**
   * Listens for list-row writes (`put` with a list row, `noteSession`, `forget`, `dropSession`),
   * each told after its write returned — for a synchronous store, after it committed. Returns an
   * unsubscribe. A listener that throws is logged, never fails the write.
   */
  onListChanged(listener: ListRowListener): () => void {
    this.#listListeners.add(listener);
    return () => this.#listListeners.delete(listener);
  }

  #listChanged(sessionId: string, header: ListIndexRow['header'] | undefined): void {
    if (this.#heldChanges !== undefined) {
      this.#heldChanges.push([sessionId, header]);
      return;
    }
    for (const listener of this.#listListeners) {
      try {
        listener(sessionId, header);
      } catch (error) {
        this.#logger.error('a list row listener threw', { sessionId, error });
      }
    }
  }

  close(): void {
    this.#store.close();
  }

  #writeList(sessionId: string, write: () => void): void {
    try {
      write();
    } catch (error) {
      throw new ProjectionCacheError(
        'PROJECTION_CACHE_WRITE_FAILED',
        `cannot write the list row of ${sessionId}`,
        {
          cause: error,
          sessionId,
        },
      );
    }
  }

  /**
   * The list row `put` writes beside the rows: the hint keys' views of the states being written,
   * at the lowest of their cuts (as `cachedSnapshot` labels them). A key whose view throws is left
   * unknown; with no hint key among the rows the row carries header facts only (never erasing).
   */
  #listRow(subject: CacheSubject, rows: CheckpointRows): ListIndexRow | undefined {
    if (this.#store.listIndex === undefined) return undefined;
    const values: Record<string, unknown> = {};
    let lowestCut = Number.POSITIVE_INFINITY;
    for (const key of LIST_HINT_KEYS) {
      const row = Object.hasOwn(rows, key) ? rows[key] : undefined;
      const unit = this.#registry.unit(key);
      if (row === undefined || unit === undefined || row.stateVersion !== unit.stateVersion) continue;
      try {
        values[key] = unit.view(row.state);
      } catch (error) {
        this.#miss(subject, key, 'view threw on the state being written', error);
        continue;
      }
      lowestCut = Math.min(lowestCut, row.cut);
    }
    const hints = lowestCut === Number.POSITIVE_INFINITY ? undefined : { asOfSeq: lowestCut - 1, values };
    return {
      header: subject.header,
      incarnation: subject.incarnation,
      hints,
      usage: this.#usageOf(subject, rows),
    };
  }

  /** The usage hours `put` writes beside the list row: the `usage` unit's view of its state being written. */
  #usageOf(subject: CacheSubject, rows: CheckpointRows): ListRowUsage | undefined {
    const row = Object.hasOwn(rows, USAGE_KEY) ? rows[USAGE_KEY] : undefined;
    const unit = this.#registry.unit(USAGE_KEY);
    if (row === undefined || unit === undefined || row.stateVersion !== unit.stateVersion) return undefined;
    try {
      return usageAt(unit.view(row.state), row.cut - 1);
    } catch (error) {
      this.#miss(subject, USAGE_KEY, 'view threw on the state being written', error);
      return undefined;
    }
  }

  #refuseWhenClosed(sessionId: string): void {
    if (!this.#store.isOpen)
      throw new ProjectionCacheError('PROJECTION_CACHE_CLOSED', 'the projection cache is closed', {
        sessionId,
      });
  }

  #read(subject: CacheSubject, inheritedCut: SessionLogOffset): readonly CacheRow[] {
    if (!this.#store.isOpen) return [];
    try {
      return this.#store.read(subject.header.id, subject.incarnation, inheritedCut);
    } catch (error) {
      this.#miss(subject, undefined, 'reading rows failed', error);
      return [];
    }
  }

  /** Every row of `key`, or undefined when the store cannot list them (or failed to). */
  #keyRows(key: string): Iterable<KeyRow> | undefined {
    if (this.#store.readKey === undefined) return undefined;
    try {
      return this.#store.readKey(key);
    } catch (error) {
      this.#logger.warn('reading the rows of one key failed: reading per session instead', { key, error });
      return undefined;
    }
  }

  /** The row's parsed state, or undefined for a miss (JSON.parse never yields undefined, so it is unambiguous). */
  #decode(subject: CacheSubject, unit: AnyProjectionUnit, row: CacheRow, options: CacheReadOptions): unknown {
    if (row[STATE_VERSION] !== unit.stateVersion) return undefined;
    const cut = row[CUT];
    if (!Number.isSafeInteger(cut) || cut < 0) return undefined;
    if (options.cursor !== undefined && cut > options.cursor) return undefined;
    try {
      return JSON.parse(row[STATE]) as unknown;
    } catch (error) {
      this.#miss(subject, row[KEY], 'stored state is not JSON', error);
      return undefined;
    }
  }

  #miss(subject: CacheSubject, key: string | undefined, why: string, error: unknown): void {
    this.#logger.warn(`row miss: ${why}`, {
      sessionId: subject.header.id,
      incarnation: subject.incarnation,
      key,
      error,
    });
  }
}

/**
 * A `usage` view as the list index keeps it, at a cut: its hours, or null for a fold that could not
 * read a usage record (a value that is not a view is taken as that too: never summed).
 */
export function usageAt(view: unknown, asOfSeq: number): ListRowUsage {
  const byHour = (view as { byHour?: unknown } | null | undefined)?.byHour;
  return { asOfSeq, byHour: Array.isArray(byHour) ? (byHour as ListRowUsage['byHour']) : null };
}
