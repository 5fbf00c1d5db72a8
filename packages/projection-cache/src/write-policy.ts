import type { CheckpointRows, ProjectionRegistry, TrackingEvent } from '@strand/projection';
import type { Session, SessionId, SessionLogOffset } from '@strand/session';
import { ProjectionCacheError } from './errors.js';
import type { Logger } from '@strand/session';
import type { CacheSubject } from './subject.js';

/** What the policy writes to (a `ProjectionCache`, or a test double). */
export interface CacheRowWriter {
  put(subject: CacheSubject, inheritedCut: SessionLogOffset, rows: CheckpointRows): void;
  /** Drops every row of a session id. */
  forget(sessionId: SessionId): void;
}

/** Timer functions, injectable for tests. */
export interface PolicyTimers {
  set(callback: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export interface CacheWritePolicyOptions {
  readonly registry: ProjectionRegistry;
  readonly cache: CacheRowWriter;
  /**
   * The persistence's flush. Contract: resolves once every event that was handed to a live
   * session's writer before the call is durable (`SessionPersistence.flush` behind a writer that
   * passes batches straight on), and rejects if any of them could not be made durable. It is
   * awaited before every row write; a rejection skips that write.
   */
  readonly flush: () => Promise<void>;
  readonly logger: Logger;
  /** Write after this many events folded since the last write (default 512). */
  readonly everyEvents?: number;
  /** Write at most this long after the first unwritten event (default 5,000 ms). */
  readonly everyMs?: number;
  readonly timers?: PolicyTimers;
}

interface Entry {
  readonly session: Session;
  readonly subject: CacheSubject;
  unwritten: number;
  timer: unknown;
  running: Promise<void> | undefined;
  again: boolean;
  /** Set on untrack: the fold state is gone, this is the last thing to write. */
  final: CheckpointRows | undefined;
  /** Set when the fold failed: nothing may be written for this tracking any more. */
  failed: boolean;
  writtenCut: number;
}

const defaultTimers: PolicyTimers = {
  set(callback, ms) {
    const handle = setTimeout(callback, ms);
    // A pending cache write must never keep a process alive.
    handle.unref();
    return handle;
  },
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * When checkpoint rows of live sessions are written: at turn end (a `turn/end` event), when a
 * session stops being tracked (detach: live → cold), and throttled in between — after
 * `everyEvents` events or `everyMs` ms, whichever comes first.
 *
 * Invariant: a row never claims a cut the log has not durably stored. The registry folds durable
 * batches only (a live `Session` delivers a batch to subscribers once its writer acknowledged it),
 * so every checkpoint is already at a durable cut; the `flush` before each write keeps the
 * invariant for registries fed any other way. A session whose durable write failed is never
 * written. Failures are contained: logged, and healed by the next write (rows are whole states).
 * At most one write per session runs at a time; triggers during it coalesce into one more.
 *
 * The cache never changes a verdict: when a unit throws on a live session, the session's rows are
 * dropped (not left at their older cut), so a later cold read folds the log and reaches the same
 * failure it would reach with no cache mounted.
 */
export class CacheWritePolicy {
  readonly #registry: ProjectionRegistry;
  readonly #cache: CacheRowWriter;
  readonly #flush: () => Promise<void>;
  readonly #logger: Logger;
  readonly #everyEvents: number;
  readonly #everyMs: number;
  readonly #timers: PolicyTimers;
  readonly #entries = new Map<Session, Entry>();
  readonly #running = new Set<Promise<void>>();
  readonly #unsubscribe: () => void;

  constructor(options: CacheWritePolicyOptions) {
    this.#registry = options.registry;
    this.#cache = options.cache;
    this.#flush = options.flush;
    this.#logger = options.logger;
    this.#everyEvents = options.everyEvents ?? 512;
    this.#everyMs = options.everyMs ?? 5_000;
    this.#timers = options.timers ?? defaultTimers;
    this.#unsubscribe = this.#registry.onTracking((event) => this.#on(event));
  }

  /** Resolves when no write is in flight (tests, orderly shutdown). */
  async drain(): Promise<void> {
    while (this.#running.size > 0) await Promise.allSettled([...this.#running]);
  }

  /** Stops following the registry and cancels throttle timers; writes in flight finish. */
  dispose(): void {
    this.#unsubscribe();
    for (const entry of this.#entries.values()) this.#clearTimer(entry);
    this.#entries.clear();
  }

  #on(event: TrackingEvent): void {
    switch (event.kind) {
      case 'tracked':
        // Tracked again while its final write is pending: that write keeps the old entry, and the
        // cache refuses to move a row back to an older cut, so the two cannot undo each other.
        if (this.#entries.get(event.session)?.final !== undefined) this.#entries.delete(event.session);
        this.#entryOf(event.session);
        return;
      case 'folded': {
        const entry = this.#entryOf(event.session);
        if (entry === undefined) return;
        entry.unwritten += event.events.length;
        if (entry.unwritten >= this.#everyEvents || event.events.some((e) => e.type === 'turn/end'))
          this.#request(entry);
        else entry.timer ??= this.#timers.set(() => this.#request(entry), this.#everyMs);
        return;
      }
      case 'failed': {
        // A failed fold has no trustworthy state to write, and an older row would read as healthy.
        const entry = this.#entries.get(event.session);
        if (entry !== undefined) {
          entry.failed = true;
          this.#clearTimer(entry);
        }
        this.#entries.delete(event.session);
        this.#forget(event.session.id);
        return;
      }
      case 'untracked': {
        const entry =
          event.checkpoint === undefined ? this.#entries.get(event.session) : this.#entryOf(event.session);
        if (entry === undefined) return;
        this.#clearTimer(entry);
        if (event.checkpoint === undefined) {
          this.#entries.delete(event.session);
          return;
        }
        entry.final = event.checkpoint;
        this.#request(entry);
        return;
      }
      default:
        return event satisfies never;
    }
  }

  /** The session's entry, created on first sight (sessions tracked before the policy started count too). */
  #entryOf(session: Session): Entry | undefined {
    const existing = this.#entries.get(session);
    if (existing !== undefined) return existing;
    // A session with no persistence incarnation has nothing durable a row could refer to.
    if (session.incarnation === undefined) return undefined;
    const entry: Entry = {
      session,
      subject: { header: session.header, incarnation: session.incarnation },
      unwritten: 0,
      timer: undefined,
      running: undefined,
      again: false,
      final: undefined,
      failed: false,
      writtenCut: -1,
    };
    this.#entries.set(session, entry);
    return entry;
  }

  #request(entry: Entry): void {
    this.#clearTimer(entry);
    if (entry.running !== undefined) {
      entry.again = true;
      return;
    }
    const running = this.#run(entry).finally(() => {
      entry.running = undefined;
      this.#running.delete(running);
      // A trigger that arrived after the loop's last check (e.g. the final rows of a detach) runs now.
      if (entry.again && !entry.failed) return this.#request(entry);
      if (entry.final !== undefined && this.#entries.get(entry.session) === entry)
        this.#entries.delete(entry.session);
    });
    entry.running = running;
    this.#running.add(running);
  }

  async #run(entry: Entry): Promise<void> {
    do {
      entry.again = false;
      // Let the append whose fold triggered us hand its batch to the session's writer first.
      await Promise.resolve();
      const rows = entry.final ?? this.#checkpoint(entry);
      entry.unwritten = 0;
      if (rows === undefined) return;
      const cut = cutOf(rows);
      if (cut === undefined || cut <= entry.writtenCut) continue;
      await this.#write(entry, rows, cut);
    } while (entry.again);
  }

  #checkpoint(entry: Entry): CheckpointRows | undefined {
    if (!this.#registry.isTracked(entry.session)) return undefined;
    try {
      return this.#registry.checkpoint(entry.session);
    } catch {
      // PROJECTION_FAILED: the registry already reported it and will emit `failed`; nothing to write.
      return undefined;
    }
  }

  async #write(entry: Entry, rows: CheckpointRows, cut: number): Promise<void> {
    const sessionId = entry.session.id;
    try {
      await this.#flush();
      // The fold failed while this write waited: its rows were dropped and must stay dropped.
      if (entry.failed) return;
      if (entry.session.writeFailure !== undefined) {
        this.#logger.warn(
          'skipped a row write: the session log write failed, so its cut may not be durable',
          { sessionId, cut },
        );
        return;
      }
      this.#cache.put(entry.subject, entry.session.inheritedEventCount, rows);
      entry.writtenCut = cut;
    } catch (error) {
      const failure =
        error instanceof ProjectionCacheError
          ? error
          : new ProjectionCacheError(
              'PROJECTION_CACHE_WRITE_FAILED',
              `cannot write projection cache rows of ${sessionId}`,
              { cause: error, sessionId },
            );
      this.#logger.warn('projection cache write failed; the next write heals it', {
        sessionId,
        cut,
        error: failure,
      });
    }
  }

  #forget(sessionId: SessionId): void {
    try {
      this.#cache.forget(sessionId);
    } catch (error) {
      this.#logger.warn('dropping the rows of a failed fold failed; a cold read may serve them', {
        sessionId,
        error,
      });
    }
  }

  #clearTimer(entry: Entry): void {
    if (entry.timer === undefined) return;
    this.#timers.clear(entry.timer);
    entry.timer = undefined;
  }
}

/** Rows of one checkpoint share a cut; undefined when there are no rows (nothing registered). */
function cutOf(rows: CheckpointRows): number | undefined {
  for (const key in rows) return rows[key]!.cut;
  return undefined;
}
