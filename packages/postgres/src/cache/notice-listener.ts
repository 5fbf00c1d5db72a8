import pg from 'pg';
import type { Logger } from '@strand/session';

export interface NoticeListenerOptions {
  readonly url: string;
  readonly channel: string;
  readonly logger: Logger;
  /** A notice's payload (a session id). */
  readonly onNotice: (payload: string) => void;
  /** Listening again after a lost connection: notices sent meanwhile are lost, resynchronize. */
  readonly onReconnected: () => void;
  /** First and longest wait before reconnecting (default 100 ms, 5 s); doubles per failed attempt. */
  readonly backoffMs?: { readonly first: number; readonly max: number };
  /** `application_name` of the connection; default `LISTENER_APPLICATION_NAME`. */
  readonly applicationName?: string;
  /** What the notices announce, for the log lines (default `row changes`). */
  readonly subject?: string;
}

/** `application_name` of the listening connection (operators and tests can find it by this). */
export const LISTENER_APPLICATION_NAME = 'strand-projection-cache-listener';

/**
 * One dedicated connection that LISTENs on a channel (a pooled connection cannot: LISTEN is per
 * session and a pool hands connections around). When the connection drops it reconnects with
 * exponential backoff, forever until stopped, and reports each reconnection.
 */
export class NoticeListener {
  readonly #options: NoticeListenerOptions;
  readonly #first: number;
  readonly #max: number;
  #client: pg.Client | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #failures = 0;
  #stopped = false;

  get #subject(): string {
    return this.#options.subject ?? 'row changes';
  }

  constructor(options: NoticeListenerOptions) {
    this.#options = options;
    this.#first = options.backoffMs?.first ?? 100;
    this.#max = options.backoffMs?.max ?? 5_000;
  }

  /** Connects and listens; rejects when the first connection fails (nothing retries it). */
  start(): Promise<void> {
    return this.#connect();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    const client = this.#client;
    this.#client = undefined;
    await client?.end();
  }

  async #connect(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.#options.url,
      application_name: this.#options.applicationName ?? LISTENER_APPLICATION_NAME,
      connectionTimeoutMillis: 10_000,
    });
    client.on('error', (error) => this.#lost(client, error));
    client.on('end', () => this.#lost(client, undefined));
    client.on('notification', (notice) => {
      if (notice.channel === this.#options.channel && notice.payload !== undefined)
        this.#options.onNotice(notice.payload);
    });
    try {
      await client.connect();
      // The channel name is a constant identifier, not a value: LISTEN takes no parameters.
      await client.query(`LISTEN ${this.#options.channel}`);
    } catch (error) {
      // Already failing; ending it only releases the socket.
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.#stopped) {
      await client.end();
      return;
    }
    this.#client = client;
  }

  #lost(client: pg.Client, error: Error | undefined): void {
    // Events of a client that is not (or no longer) the listening one are already handled.
    if (client !== this.#client || this.#stopped) return;
    this.#client = undefined;
    this.#options.logger.warn(`lost the connection that listens for ${this.#subject}; reconnecting`, {
      channel: this.#options.channel,
      error,
    });
    // It is broken; ending it only releases the socket.
    client.end().catch(() => undefined);
    this.#scheduleReconnect();
  }

  #scheduleReconnect(): void {
    const delay = Math.min(this.#max, this.#first * 2 ** this.#failures);
    this.#timer = setTimeout(() => void this.#reconnect(), delay);
    // A pending reconnection must never keep a process alive on its own.
    this.#timer.unref();
  }

  async #reconnect(): Promise<void> {
    if (this.#stopped) return;
    try {
      await this.#connect();
    } catch (error) {
      this.#failures++;
      this.#options.logger.warn(`reconnecting the listener for ${this.#subject} failed; retrying`, {
        channel: this.#options.channel,
        error,
      });
      this.#scheduleReconnect();
      return;
    }
    this.#failures = 0;
    if (!this.#stopped) this.#options.onReconnected();
  }
}
