import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { ensureSchema } from '../schema-versions.js';
import { CoordinationError } from './errors.js';
import {
  ACQUIRE,
  COORDINATION_COMPONENT,
  COORDINATION_SCHEMA_VERSION,
  HOLDER,
  LEASES_DDL,
  OWNED_ELSEWHERE,
  RELEASE,
  RELEASE_ALL,
  RENEW,
} from './lease-sql.js';
import { reportTo, silentLogger, type Logger, defined } from '@strand/session';

export const DEFAULT_LEASE_TTL_MS = 15_000;

/**
 * The connection under a query died: the server ended the backend (SQLSTATE class 57P: admin
 * shutdown, crash shutdown, cannot connect now), the connection failed (class 08), or pg saw the
 * socket close (no SQLSTATE).
 */
function connectionLost(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return /^(57P0[1-3]|08...)$/.test(code);
  return error instanceof Error && /^Connection terminated/.test(error.message);
}

/** `application_name` of the lease pool's connections. */
export const LEASES_APPLICATION_NAME = 'strand-leases';

export interface SessionLeasesOptions {
  /** `postgres://…` of the shared database. */
  readonly url: string;
  /** How long a lease outlives its holder's last renewal (default 15 s; 100 ms … 10 min). */
  readonly ttlMs?: number;
  /** Renewal period (default ttl/3: two renewals may fail before the lease can expire). */
  readonly renewEveryMs?: number;
  /** This host's name in the table (default `hostname:pid:random`): unique per process. */
  readonly owner?: string;
  /** Failures nobody awaits (an idle pooled connection dropping). Default: `logger`. */
  readonly reportError?: (error: unknown) => void;
  /** The renewal timer and the monotonic clock expiry is measured on (default the process's); tests inject a manual one. */
  readonly clock?: LeaseClock;
  /** Default: `silentLogger`. */
  readonly logger?: Logger;
}

/** Who holds a lease and until when (database time). */
/** What leases need of a clock: monotonic milliseconds and a repeating timer. */
export interface LeaseClock {
  now(): number;
  setInterval(tick: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

const PROCESS_CLOCK: LeaseClock = {
  now: () => performance.now(),
  // Leases never keep a process alive; whatever holds them (a host, an agent) does.
  setInterval: (tick, ms) => setInterval(tick, ms).unref(),
  clearInterval: (handle) => clearInterval(handle as ReturnType<typeof setInterval>),
};

export interface LeaseHolder {
  readonly owner: string;
  readonly expiresAt: Date;
}

/**
 * A lease this host believed it held and no longer does: `taken` — the row now belongs to
 * someone else or is gone; `unconfirmed` — renewals failed until its last confirmed expiry passed,
 * so another host may already have taken it.
 */
export interface LeaseLoss {
  readonly sessionId: string;
  readonly reason: 'taken' | 'unconfirmed';
  readonly cause?: unknown;
}

/** One held lease: `count` acquires not yet released; `confirmedUntil` on this process's monotonic clock. */
interface Held {
  count: number;
  confirmedUntil: number;
}

/**
 * Session leases in the shared database: at most one host runs an agent on a session at a time.
 *
 * - `acquire(id)` takes a free or expired lease (or our own) in one statement, else refuses with
 *   `SESSION_OWNED_ELSEWHERE` naming the holder. Acquires are counted per id: the lease is
 *   deleted when the last holder in this process releases it. Operations on one id run in order.
 * - While held, every lease is renewed in one statement every `renewEveryMs`. A renewal that finds
 *   a lease gone, or that could not confirm it before its last known expiry, drops it and tells
 *   `onLost` listeners — the host must stop writing to that session.
 * - The database clock decides expiry; this process only measures durations (monotonic), and
 *   counts a lease from *before* the statement that set it, so it never believes a lease longer
 *   than the database grants it.
 */
export class SessionLeases {
  readonly owner: string;
  readonly ttlMs: number;
  readonly #pool: pg.Pool;
  readonly #renewEveryMs: number;
  readonly #held = new Map<string, Held>();
  readonly #chains = new Map<string, Promise<unknown>>();
  readonly #lost = new Set<(loss: LeaseLoss) => void>();
  readonly #reportError: (error: unknown) => void;
  readonly #clock: LeaseClock;
  #timer: unknown;
  #renewing: Promise<void> | undefined;
  #closed = false;

  private constructor(
    pool: pg.Pool,
    owner: string,
    ttlMs: number,
    renewEveryMs: number,
    report: (e: unknown) => void,
    clock: LeaseClock,
  ) {
    this.#pool = pool;
    this.owner = owner;
    this.ttlMs = ttlMs;
    this.#renewEveryMs = renewEveryMs;
    this.#reportError = report;
    this.#clock = clock;
  }

  /** Opens a small pool (2 connections) and creates the lease table if this database has none. */
  static async open(options: SessionLeasesOptions): Promise<SessionLeases> {
    const ttlMs = options.ttlMs ?? DEFAULT_LEASE_TTL_MS;
    if (!Number.isSafeInteger(ttlMs) || ttlMs < 100 || ttlMs > 600_000)
      throw new CoordinationError(
        'COORDINATION_CONFIG_INVALID',
        `lease ttlMs must be an integer 100…600000, got ${ttlMs}`,
      );
    const renewEveryMs = options.renewEveryMs ?? Math.floor(ttlMs / 3);
    if (!Number.isSafeInteger(renewEveryMs) || renewEveryMs < 10 || renewEveryMs >= ttlMs)
      throw new CoordinationError(
        'COORDINATION_CONFIG_INVALID',
        `lease renewEveryMs must be an integer from 10 up to below the ttl (${ttlMs}), got ${renewEveryMs}`,
      );
    const owner = options.owner ?? `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
    if (owner.length === 0 || owner.length > 200)
      throw new CoordinationError('COORDINATION_CONFIG_INVALID', 'a lease owner is 1…200 characters');
    const report =
      options.reportError ??
      reportTo(options.logger ?? silentLogger, 'session leases: a failure was contained');
    const pool = new pg.Pool({
      connectionString: options.url,
      max: 2,
      application_name: LEASES_APPLICATION_NAME,
      // A renewal stuck on a dead connection must fail (and count against expiry), not hang.
      connectionTimeoutMillis: 10_000,
      query_timeout: 10_000,
    });
    // An idle pooled connection that drops is replaced on the next query; it must not crash the host.
    pool.on('error', report);
    try {
      const client = await pool.connect();
      try {
        await ensureSchema(client, COORDINATION_COMPONENT, COORDINATION_SCHEMA_VERSION, LEASES_DDL);
      } finally {
        client.release();
      }
    } catch (error) {
      await pool.end();
      throw error;
    }
    return new SessionLeases(pool, owner, ttlMs, renewEveryMs, report, options.clock ?? PROCESS_CLOCK);
  }

  /** True while this process holds the lease (acquired, not released, not lost). */
  holds(sessionId: string): boolean {
    return this.#held.has(sessionId);
  }

  /** Takes the lease (or counts one more holder of ours); refuses `SESSION_OWNED_ELSEWHERE`. */
  acquire(sessionId: string): Promise<void> {
    return this.#serial(sessionId, async () => {
      this.#assertOpen();
      const held = this.#held.get(sessionId);
      if (held !== undefined) {
        held.count++;
        return;
      }
      const started = this.#clock.now();
      await this.#take(sessionId);
      if (this.#closed) {
        await this.#pool.query(RELEASE, [sessionId, this.owner]).catch(this.#reportError);
        this.#assertOpen();
      }
      this.#held.set(sessionId, { count: 1, confirmedUntil: started + this.ttlMs });
      this.#startRenewing();
    });
  }

  /** Drops one holder; the last one deletes the row so another host may take it at once. */
  release(sessionId: string): Promise<void> {
    return this.#serial(sessionId, async () => {
      const held = this.#held.get(sessionId);
      if (held === undefined || --held.count > 0) return;
      this.#held.delete(sessionId);
      if (this.#closed) return;
      await this.#retried(() => this.#pool.query(RELEASE, [sessionId, this.owner]));
    });
  }

  /** Unexpired leases held by other owners, in one query (for list rows). */
  async ownedElsewhere(): Promise<Map<string, LeaseHolder>> {
    this.#assertOpen();
    const result = await this.#retried(() =>
      this.#pool.query<{ session_id: string; owner: string; expires_at: Date }>(OWNED_ELSEWHERE, [
        this.owner,
      ]),
    );
    return new Map(
      result.rows.map((row) => [row.session_id, { owner: row.owner, expiresAt: row.expires_at }]),
    );
  }

  /** Leases this process lost (see `LeaseLoss`). */
  onLost(listener: (loss: LeaseLoss) => void): () => void {
    this.#lost.add(listener);
    return () => this.#lost.delete(listener);
  }

  /**
   * One renewal round now (the timer runs the same): extends every held lease, drops the ones
   * found lost. Resolves when done; never rejects (a failed round counts against expiry).
   */
  renew(): Promise<void> {
    this.#dropUnconfirmed(undefined);
    if (this.#renewing === undefined && this.#held.size > 0 && !this.#closed) {
      this.#renewing = this.#renewRound().finally(() => (this.#renewing = undefined));
    }
    return this.#renewing ?? Promise.resolve();
  }

  /** Stops renewing, deletes every lease this owner holds and closes the pool. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#timer !== undefined) this.#clock.clearInterval(this.#timer);
    await this.#renewing;
    await Promise.allSettled([...this.#chains.values()]);
    this.#held.clear();
    try {
      await this.#pool.query(RELEASE_ALL, [this.owner]);
    } finally {
      await this.#pool.end();
    }
  }

  async #take(sessionId: string): Promise<void> {
    // A refused upsert followed by an empty holder read means the holder released or expired in
    // between: try again. Three rounds only lose to a pathological churn, reported as refused.
    let holder: LeaseHolder | undefined;
    for (let attempt = 0; attempt < 3; attempt++) {
      const taken = await this.#retried(() => this.#pool.query(ACQUIRE, [sessionId, this.owner, this.ttlMs]));
      if (taken.rowCount === 1) return;
      const found = await this.#retried(() =>
        this.#pool.query<{ owner: string; expires_at: Date }>(HOLDER, [sessionId]),
      );
      const row = found.rows[0];
      if (row !== undefined) {
        holder = { owner: row.owner, expiresAt: row.expires_at };
        break;
      }
    }
    throw new CoordinationError(
      'SESSION_OWNED_ELSEWHERE',
      holder === undefined
        ? `session ${sessionId} is contended by other hosts; try again`
        : `session ${sessionId} is owned by ${holder.owner} until ${holder.expiresAt.toISOString()}`,
      {
        details: {
          sessionId,
          ...(holder === undefined ? {} : { owner: holder.owner, expiresAt: holder.expiresAt.toISOString() }),
        },
      },
    );
  }

  /**
   * Runs an idempotent statement (acquire, holder read, release, the owners listing) once more when its pooled connection was
   * found dead: a backend ended by the server (`pg_terminate_backend`, a failover) while idle is
   * discovered by the next query on it, and the pool hands a fresh connection to the retry. Found
   * by the soak (docs/soak.md): without it, the command that needed the lease failed untyped.
   */
  async #retried<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (!connectionLost(error) || this.#closed) throw error;
      return run();
    }
  }

  #startRenewing(): void {
    if (this.#timer !== undefined) return;
    this.#timer = this.#clock.setInterval(() => void this.renew(), this.#renewEveryMs);
  }

  async #renewRound(): Promise<void> {
    const entries = [...this.#held];
    const started = this.#clock.now();
    let kept: Set<string>;
    try {
      const result = await this.#pool.query<{ session_id: string }>(RENEW, [
        this.owner,
        entries.map(([id]) => id),
        this.ttlMs,
      ]);
      kept = new Set(result.rows.map((row) => row.session_id));
    } catch (error) {
      this.#reportError(error);
      this.#dropUnconfirmed(error);
      return;
    }
    for (const [id, held] of entries) {
      // Released (or released and taken again) while the round ran: that entry is not ours to judge.
      if (this.#held.get(id) !== held) continue;
      if (kept.has(id)) held.confirmedUntil = started + this.ttlMs;
      else this.#lose(id, { sessionId: id, reason: 'taken' });
    }
  }

  /** Drops the leases whose confirmed lifetime ran out without a successful renewal. */
  #dropUnconfirmed(cause: unknown): void {
    const now = this.#clock.now();
    for (const [id, held] of [...this.#held])
      if (now >= held.confirmedUntil)
        this.#lose(id, { sessionId: id, reason: 'unconfirmed', ...defined({ cause }) });
  }

  #lose(id: string, loss: LeaseLoss): void {
    this.#held.delete(id);
    if (this.#held.size === 0 && this.#timer !== undefined) {
      this.#clock.clearInterval(this.#timer);
      this.#timer = undefined;
    }
    for (const listener of this.#lost) {
      try {
        listener(loss);
      } catch (error) {
        this.#reportError(error);
      }
    }
  }

  #serial<T>(id: string, work: () => Promise<T>): Promise<T> {
    const previous = this.#chains.get(id) ?? Promise.resolve();
    const next = previous.then(work, work);
    const settled = next.then(
      () => undefined,
      () => undefined,
    );
    this.#chains.set(id, settled);
    void settled.then(() => {
      if (this.#chains.get(id) === settled) this.#chains.delete(id);
    });
    return next;
  }

  #assertOpen(): void {
    if (this.#closed) throw new CoordinationError('COORDINATION_CLOSED', 'the session leases were closed');
  }
}
