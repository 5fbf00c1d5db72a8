import { FollowHub } from './follow/follow-hub.js';
import type { Outbound } from './follow/outbound.js';
import { ListChangeFeed } from './list/list-changes.js';
import { serveConnection, type ServedConnection } from './rpc/connection.js';
import { headerReader } from './share/header-of.js';
import { FULL_ACCESS } from './share/share-gate.js';
import { ShareService } from './share/share-service.js';
import { NODE_TIMERS } from './share/expiry-timer.js';
import { DEFAULT_LIMITS, servedServices, type HostLimits, type HostServices } from './services.js';

/** The client end of an in-process connection: the part of a WebSocket `StrandConnection` uses. */
export interface InProcessSocket {
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { readonly data: unknown }) => void) | null;
  onclose: ((event: { readonly code: number; readonly reason: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
}

export interface InProcessHost {
  /** A WebSocket constructor for `StrandConnection` (`new StrandConnection({ url, WebSocket })`); the url is ignored. */
  readonly WebSocket: new (url: string) => InProcessSocket;
  /** Open connections. */
  readonly connections: number;
  /** Closes every connection (code 1001, as a host going away) and the host's feeds. */
  close(): Promise<void>;
}

export interface InProcessHostOptions {
  readonly services: HostServices;
  readonly limits?: Partial<HostLimits>;
}

/** What a closed in-process connection reports (RFC 6455 "normal closure" / "going away"). */
const NORMAL_CLOSURE = 1000;
const GOING_AWAY = 1001;

/**
 * The host's JSON-RPC for a client in the same process (the CLI's embedded reads, `strand mcp`'s
 * tool calls), with no port and no socket: each connection is a pair of in-memory ends, served by
 * the same `serveConnection` as a `/rpc` WebSocket — the same params schemas, frame limits, handlers,
 * durable cut and error mapping. Frames cross on a later macrotask (`setImmediate`), as they would
 * over a socket, so neither side runs inside the other's call. It has no edge: nothing outside the
 * process can reach it, so there is no token, origin or share link (`share.create` answers, as on
 * any host that requires no token, that everyone reaching it can already read everything).
 */
export function inProcessHost(options: InProcessHostOptions): InProcessHost {
  const limits: HostLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const services = servedServices(options.services);
  const hub = new FollowHub(services, limits.maxQueuedBytes);
  const lists = new ListChangeFeed(services);
  const shares = new ShareService({
    store: services.shares,
    tokenRequired: false,
    baseUrl: 'strand:in-process',
    now: Date.now,
    timers: NODE_TIMERS,
    logger: services.logger,
    headerOf: headerReader(services),
  });
  const base = { services, hub, lists, limits, shares, now: Date.now };
  const open = new Set<PairedSocket>();
  let closed = false;
  // An open socket keeps a process alive; so does an open in-process connection (a `strand follow`
  // waiting for the next event has nothing else pending).
  let keepAlive: NodeJS.Timeout | undefined;
  const opened = (socket: PairedSocket): void => {
    open.add(socket);
    keepAlive ??= setInterval(() => undefined, 2 ** 30);
  };
  const ended = (socket: PairedSocket): void => {
    open.delete(socket);
    if (open.size > 0 || keepAlive === undefined) return;
    clearInterval(keepAlive);
    keepAlive = undefined;
  };

  class PairedSocket implements InProcessSocket {
    onopen: InProcessSocket['onopen'] = null;
    onmessage: InProcessSocket['onmessage'] = null;
    onclose: InProcessSocket['onclose'] = null;
    onerror: InProcessSocket['onerror'] = null;
    #state: 'connecting' | 'open' | 'closed' = 'connecting';
    readonly #connection: ServedConnection;

    constructor(_url: string) {
      const isOpen = (): boolean => this.#state === 'open';
      const out: Outbound = {
        bufferedAmount: 0,
        get open() {
          return isOpen();
        },
        send: (text, done) =>
          setImmediate(() => {
            if (this.#state !== 'open') {
              done?.(new Error('the in-process connection is closed'));
              return;
            }
            this.onmessage?.({ data: text });
            done?.();
          }),
      };
      this.#connection = serveConnection(base, out, FULL_ACCESS);
      setImmediate(() => {
        if (this.#state !== 'connecting') return;
        if (closed) {
          this.#end(GOING_AWAY, 'the host is closed');
          return;
        }
        this.#state = 'open';
        opened(this);
        this.onopen?.({});
      });
    }

    send(data: string): void {
      if (this.#state !== 'open') throw new Error('the in-process connection is not open');
      const bytes = Buffer.from(data, 'utf8');
      setImmediate(() => {
        if (this.#state === 'open') this.#connection.receive(bytes, false);
      });
    }

    close(code = NORMAL_CLOSURE, reason = ''): void {
      this.#end(code, reason);
    }

    #end(code: number, reason: string): void {
      if (this.#state === 'closed') return;
      this.#state = 'closed';
      ended(this);
      this.#connection.closed();
      setImmediate(() => this.onclose?.({ code, reason }));
    }

    /** The host's side of `close`: the host is going away. */
    hostClose(): void {
      this.#end(GOING_AWAY, 'the host is closing');
    }
  }

  return {
    WebSocket: PairedSocket,
    get connections() {
      return open.size;
    },
    close() {
      closed = true;
      for (const socket of [...open]) socket.hostClose();
      shares.close();
      hub.close();
      lists.close();
      return Promise.resolve();
    },
  };
}
