import { Session, type SessionId, type SessionStore } from '@strand/session';
import { PersistenceError, throwIfAborted } from '../errors.js';
import type { ReadOptions, SessionPersistence } from '../types.js';
import { prepare, type PreparedSession } from './prepared-session.js';
import { persistenceWriter } from './persistence-writer.js';

/** A pin on one prepared session; `release` is idempotent. */
export interface PreparationLease {
  readonly prepared: PreparedSession;
  release(): void;
}

/** A prepared session reserved for publication to the live store. */
export interface PublicationReservation extends PreparationLease {
  /**
   * Writes the repairs the cold log needs, builds the live `Session` from the prepared events (no
   * second read) and attaches it to `store`. The reservation's lease is released either way.
   */
  publish(store: SessionStore): Promise<Session>;
}

export interface PreparationStats {
  /** Cold decodes started (one per shared load). */
  readonly decodes: number;
  /** Prepared entries held (loading, pinned or in the LRU). */
  readonly entries: number;
  /** Leases handed out and not yet released. */
  readonly outstandingLeases: number;
}

/** Options of `borrow`. */
export interface BorrowOptions extends ReadOptions {
  /**
   * `false` for a one-off scan (compute and discard, e.g. a subagent listing's cold rung): once
   * released, its decode is dropped instead of entering the LRU — unless a retaining borrower
   * shares it. Keeping scan reads would only push the useful entries out and keep megabytes of
   * decoded events alive long enough for the GC to copy them into the old generation.
   */
  readonly retain?: boolean;
}

interface Entry {
  readonly id: SessionId;
  readonly load: Promise<PreparedSession>;
  prepared: PreparedSession | undefined;
  leases: number;
  /** Whether any borrower wanted it kept for reuse (see `BorrowOptions.retain`). */
  retain: boolean;
  reserved: boolean;
}

export interface SessionPreparationsOptions {
  /** Unpinned prepared sessions kept for reuse (default 5). */
  readonly capacity?: number;
}

/**
 * The shared preparation layer over one persistence (packages/persistence/README.md): concurrent cold reads of an
 * id share one decode; a small LRU keeps recently prepared sessions; a borrower pins its entry
 * (even while it is still loading) until it releases; a cached entry whose persisted revision
 * changed is not served. A queued reader whose signal aborts is rejected at once while the
 * shared load goes on for the others.
 */
export class SessionPreparations {
  readonly #persistence: SessionPersistence;
  readonly #capacity: number;
  readonly #entries = new Map<SessionId, Entry>();
  #decodes = 0;
  #outstanding = 0;

  constructor(persistence: SessionPersistence, options: SessionPreparationsOptions = {}) {
    this.#persistence = persistence;
    this.#capacity = options.capacity ?? 5;
  }

  get persistence(): SessionPersistence {
    return this.#persistence;
  }

  stats(): PreparationStats {
    return { decodes: this.#decodes, entries: this.#entries.size, outstandingLeases: this.#outstanding };
  }

  async borrow(id: SessionId, options: BorrowOptions = {}): Promise<PreparationLease> {
    const entry = await this.#acquire(id, options, options.retain !== false);
    return this.#lease(entry);
  }

  async reserve(id: SessionId, options: ReadOptions = {}): Promise<PublicationReservation> {
    const entry = await this.#acquire(id, options, true);
    if (entry.reserved) {
      this.#unpin(entry);
      throw new PersistenceError(
        'PERSISTENCE_RESERVED',
        `session ${id} is already reserved for publication`,
        { sessionId: id },
      );
    }
    entry.reserved = true;
    const lease = this.#lease(entry);
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      entry.reserved = false;
      lease.release();
    };
    return {
      prepared: lease.prepared,
      release: finish,
      publish: async (store) => {
        try {
          return await this.#publish(entry, lease.prepared, store);
        } finally {
          finish();
        }
      },
    };
  }

  /** True while an entry for `id` exists, loading or prepared: a borrow would share it. */
  has(id: SessionId): boolean {
    return this.#entries.has(id);
  }

  /** Drops the unpinned entry for `id` (pinned holders keep theirs). */
  invalidate(id: SessionId): void {
    const entry = this.#entries.get(id);
    if (entry !== undefined) this.#entries.delete(id);
  }

  async #publish(entry: Entry, prepared: PreparedSession, store: SessionStore): Promise<Session> {
    const id = entry.id;
    const current = await this.#persistence.revisionOf(id);
    if (current !== prepared.revision) {
      throw new PersistenceError(
        'PERSISTENCE_SEQ_CONFLICT',
        `session ${id} changed since it was prepared; prepare it again`,
        { sessionId: id },
      );
    }
    if (prepared.repairs.length > 0) await this.#persistence.append(id, prepared.repairs);
    const session = new Session({
      header: prepared.header,
      events: prepared.events,
      inheritedEventCount: prepared.inheritedEventCount,
      incarnation: prepared.incarnation,
      writer: persistenceWriter(this.#persistence, id),
    });
    store.attach(session);
    // The live session is the authority now; a cold copy would only go stale.
    if (this.#entries.get(id) === entry) this.#entries.delete(id);
    return session;
  }

  async #acquire(id: SessionId, options: ReadOptions, retain: boolean): Promise<Entry> {
    throwIfAborted(options.signal, id);
    let entry = this.#entries.get(id);
    if (entry?.prepared !== undefined) {
      // Revalidate a settled entry: the stored log may have changed since it was decoded.
      const revision = await this.#persistence.revisionOf(id, options);
      if (this.#entries.get(id) === entry && revision !== entry.prepared.revision) {
        this.#entries.delete(id);
        entry = undefined;
      }
    }
    entry = this.#entries.get(id) ?? this.#startLoad(id);
    if (retain) entry.retain = true;
    // Most recently used goes last.
    this.#entries.delete(id);
    this.#entries.set(id, entry);
    entry.leases++;
    this.#outstanding++;
    try {
      await raceAbort(entry.load, options.signal, id);
    } catch (error) {
      this.#unpin(entry);
      throw error;
    }
    return entry;
  }

  #startLoad(id: SessionId): Entry {
    this.#decodes++;
    // The shared load takes no caller's signal: one reader giving up must not cancel the others.
    const load = this.#persistence.inspect(id).then(prepare);
    const entry: Entry = { id, load, prepared: undefined, leases: 0, reserved: false, retain: false };
    load.then(
      (prepared) => {
        entry.prepared = prepared;
        this.#evict();
      },
      () => {
        // Failed loads are never cached; each waiter sees the error through its own await.
        if (this.#entries.get(id) === entry) this.#entries.delete(id);
      },
    );
    return entry;
  }

  #lease(entry: Entry): PreparationLease {
    let released = false;
    return {
      prepared: entry.prepared!,
      release: () => {
        if (released) return;
        released = true;
        this.#unpin(entry);
      },
    };
  }

  #unpin(entry: Entry): void {
    entry.leases--;
    this.#outstanding--;
    if (entry.leases === 0 && !entry.retain && this.#entries.get(entry.id) === entry)
      this.#entries.delete(entry.id);
    this.#evict();
  }

  /** Retires the least recently used entries beyond capacity that nobody pins. */
  #evict(): void {
    let unpinned = 0;
    for (const e of this.#entries.values()) if (e.leases === 0 && e.prepared !== undefined) unpinned++;
    for (const [id, e] of this.#entries) {
      if (unpinned <= this.#capacity) break;
      if (e.leases === 0 && e.prepared !== undefined && !e.reserved) {
        this.#entries.delete(id);
        unpinned--;
      }
    }
  }
}

function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined, id: string): Promise<T> {
  if (signal === undefined) return promise;
  throwIfAborted(signal, id);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => {
      reject(
        new PersistenceError('PERSISTENCE_ABORTED', `read of ${id} was aborted while queued`, {
          cause: signal.reason,
          sessionId: id,
        }),
      );
    };
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
