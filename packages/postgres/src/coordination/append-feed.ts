import pg from 'pg';
import { APPENDS_CHANNEL, parseAppendNotice, type AppendNotice } from '../persistence/index.js';
import { CoordinationError } from './errors.js';
import { reportTo, silentLogger, type Logger } from '@strand/session';

/** `application_name` of the feed's connection (operators and tests find it by this). */
export const APPEND_FEED_APPLICATION_NAME = 'strand-append-feed';

/**
 * What a subscriber of one session hears: an append committed by any host, or `resync` — the
 * feed's connection dropped and came back, so notices may have been missed; repair by seq.
 */
export type AppendFeedSignal =
  | { readonly kind: 'append'; readonly notice: AppendNotice }
  | { readonly kind: 'resync' };

export interface AppendFeedOptions {
  /** `postgres://…` of the shared database. */
  readonly url: string;
  /** Default `APPENDS_CHANNEL`, the channel persistence notifies on. */
  readonly channel?: string;
  /** Reconnect backoff: first delay and cap (default 100 ms doubling up to 5 s). */
  readonly reconnectMs?: { readonly initial: number; readonly max: number };
  /** Connection failures and unreadable notices. Default: `logger`. */
  readonly reportError?: (error: unknown) => void;
  /** Default: `silentLogger`. */
  readonly logger?: Logger;
}

/**
 * One dedicated connection LISTENing on the appends channel, delivering each notice to the
 * subscribers of its session id. PostgreSQL drops notices for a connection that is gone, so when
 * the connection drops the feed reconnects with backoff and, once LISTENing again, tells every
 * subscriber `resync`: they compare with what they have and read the missing seqs from
 * persistence. A notice only says "something was appended"; the log stays the authority.
 */
export class AppendFeed {
  readonly #url: string;
  readonly #channel: string;
  readonly #backoff: { readonly initial: number; readonly max: number };
  readonly #reportError: (error: unknown) => void;
  readonly #subscribers = new Map<string, Set<(signal: AppendFeedSignal) => void>>();
  #client: pg.Client | undefined;
  #pid: number | undefined;
  #retry: NodeJS.Timeout | undefined;
  #delay: number;
  #closed = false;

  private constructor(options: AppendFeedOptions) {
    this.#url = options.url;
    this.#channel = options.channel ?? APPENDS_CHANNEL;
    this.#backoff = options.reconnectMs ?? { initial: 100, max: 5_000 };
    this.#reportError =
      options.reportError ?? reportTo(options.logger ?? silentLogger, 'append feed: a failure was contained');
    this.#delay = this.#backoff.initial;
  }

  /** Connects and LISTENs before resolving; a first connection failure rejects. */
  static async open(options: AppendFeedOptions): Promise<AppendFeed> {
    const { initial, max } = options.reconnectMs ?? { initial: 100, max: 5_000 };
    if (!Number.isSafeInteger(initial) || !Number.isSafeInteger(max) || initial < 1 || max < initial)
      throw new CoordinationError(
        'COORDINATION_CONFIG_INVALID',
        `reconnectMs needs integers 1 ≤ initial ≤ max, got ${initial} and ${max}`,
      );
    const feed = new AppendFeed(options);
    await feed.#connect();
    return feed;
  }

  /** True while the feed's connection is up and LISTENing. */
  get connected(): boolean {
    return this.#client !== undefined;
  }

  /** The server process id of the LISTENing connection (for diagnostics and tests). */
  get backendPid(): number | undefined {
    return this.#pid;
  }

  /** Signals for one session; returns the unsubscribe. */
  subscribe(sessionId: string, listener: (signal: AppendFeedSignal) => void): () => void {
    let listeners = this.#subscribers.get(sessionId);
    if (listeners === undefined) this.#subscribers.set(sessionId, (listeners = new Set()));
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0 && this.#subscribers.get(sessionId) === listeners)
        this.#subscribers.delete(sessionId);
    };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#retry !== undefined) clearTimeout(this.#retry);
    this.#subscribers.clear();
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => undefined);
  }

  async #connect(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.#url,
      application_name: APPEND_FEED_APPLICATION_NAME,
      // A connect that hangs would stall reconnection forever; failing it retries with backoff.
      connectionTimeoutMillis: 10_000,
    });
    let dropped = false;
    // Only an established connection reconnects; a failed attempt is the caller's to retry.
    const onDrop = (error?: unknown): void => {
      if (dropped) return;
      dropped = true;
      if (this.#client !== client) return;
      this.#client = undefined;
      if (this.#closed) return;
      if (error !== undefined) this.#reportError(error);
      this.#scheduleReconnect();
    };
    client.on('error', onDrop);
    client.on('end', () => onDrop());
    client.on('notification', (message) => {
      if (message.channel === this.#channel && message.payload !== undefined) this.#deliver(message.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${client.escapeIdentifier(this.#channel)}`);
      const pid = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      this.#pid = pid.rows[0]?.pid;
    } catch (error) {
      dropped = true;
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.#closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.#client = client;
  }

  #scheduleReconnect(): void {
    if (this.#closed || this.#retry !== undefined) return;
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      this.#connect().then(
        () => {
          this.#delay = this.#backoff.initial;
          this.#resyncAll();
        },
        (error: unknown) => {
          // Closed while this attempt was in flight (a host shutting down with its database):
          // the failure is nobody's business any more, and reporting it would log after close.
          if (this.#closed) return;
          this.#reportError(error);
          this.#delay = Math.min(this.#delay * 2, this.#backoff.max);
          this.#scheduleReconnect();
        },
      );
    }, this.#delay);
  }

  #deliver(payload: string): void {
    let notice: AppendNotice | undefined;
    try {
      notice = parseAppendNotice(payload);
    } catch (error) {
      this.#reportError(error);
    }
    if (notice === undefined) return;
    const listeners = this.#subscribers.get(notice.id);
    if (listeners === undefined) return;
    this.#notify(listeners, { kind: 'append', notice });
  }

  #resyncAll(): void {
    if (this.#closed) return;
    for (const listeners of this.#subscribers.values()) this.#notify(listeners, { kind: 'resync' });
  }

  #notify(listeners: Set<(signal: AppendFeedSignal) => void>, signal: AppendFeedSignal): void {
    for (const listener of [...listeners]) {
      try {
        listener(signal);
      } catch (error) {
        this.#reportError(error);
      }
    }
  }
}
