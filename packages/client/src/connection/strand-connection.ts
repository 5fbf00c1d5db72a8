import type { MethodName, ParamsOf, ResultOf, RpcId, StrandRpcError } from '@strand/protocol';
import { assertNever } from '../assert-never.js';
import { StrandClientError } from '../errors.js';
import { Listeners, reportToConsole, type ListenerErrorReporter } from '../listeners.js';
import { backoffDelay, DEFAULT_BACKOFF, type BackoffPolicy } from './backoff.js';
import { decodeIncoming } from './rpc-codec.js';
import { checkResult } from './result-check.js';
import type { RpcCaller } from './rpc-caller.js';
import { realTimers, type Timers } from './timers.js';
import type { WebSocketConstructor, WebSocketLike } from './web-socket-like.js';

/**
 * `connecting` until the first socket opens (retrying with backoff); `open`; `reconnecting` after
 * an open socket was lost; `closed` once the owner called `close()` — terminal.
 */
export type ConnectionState = 'connecting' | 'open' | 'reconnecting' | 'closed';

/** A notification as received, tagged with the socket it came on (follow ids are scoped to one). */
export interface IncomingNotification {
  readonly method: string;
  readonly params: unknown;
  readonly epoch: number;
}

export interface StrandConnectionOptions {
  /** The host's RPC endpoint, e.g. `ws://127.0.0.1:7777/rpc`. */
  readonly url: string;
  /** The browser `WebSocket`, or `WebSocket` from the `ws` package in Node. */
  readonly WebSocket: WebSocketConstructor;
  /** Sent as the `token` query parameter on every (re)connect. */
  readonly token?: string;
  readonly backoff?: Partial<BackoffPolicy>;
  readonly timers?: Timers;
  /** Returns a number in [0, 1); drives the jitter. */
  readonly random?: () => number;
  /** Frames that are not JSON-RPC 2.0, and responses nobody waits for. Default: ignored. */
  readonly onProtocolError?: (reason: string) => void;
  readonly reportListenerError?: ListenerErrorReporter;
}

/** The close code of a socket dropped after an uncorrelated error reply (an application code: browsers allow 4000–4999). */
export const UNCORRELATED_CLOSE_CODE = 4000;

interface Outgoing {
  readonly id: number;
  readonly method: MethodName;
  readonly frame: string;
  readonly resolve: (result: unknown) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * JSON-RPC 2.0 over one WebSocket, reconnecting with exponential backoff and jitter.
 *
 * Contracts:
 * - A call made while the socket is not open waits for the next open (or `close()`).
 * - A call in flight when its socket closes rejects with `CLIENT_DISCONNECTED`: it is never
 *   resent, because the host may have executed it (commands are not idempotent).
 * - `epoch` counts opened sockets; notifications carry the epoch of their socket, so a follower
 *   can tell a new socket's follow ids from the old one's.
 * - An error reply rejects the call whose id it carries with a `StrandRpcError` (the host's
 *   refusals too: `HOST_TOO_MANY_REQUESTS`, `HOST_FRAME_TOO_LARGE` carry the request's id).
 * - An error reply with `id: null` (the host could not read the id of a frame this socket sent)
 *   answers one of the calls in flight, but not which: it is reported to `onProtocolError`, and
 *   when calls are in flight the socket is dropped and reconnected, so each of them rejects with
 *   `CLIENT_DISCONNECTED` (its `cause` the uncorrelated error) instead of one waiting forever.
 */
export class StrandConnection implements RpcCaller {
  private readonly url: string;
  private readonly policy: BackoffPolicy;
  private readonly timers: Timers;
  private readonly random: () => number;
  private readonly stateListeners: Listeners<ConnectionState>;
  private readonly notificationListeners: Listeners<IncomingNotification>;
  private currentState: ConnectionState = 'connecting';
  private socket: WebSocketLike | null = null;
  private opened = 0;
  private attempt = 0;
  private retryTimer: unknown = null;
  private nextId = 1;
  private readonly waiting: Outgoing[] = [];
  private readonly inFlight = new Map<RpcId, Outgoing>();

  constructor(private readonly options: StrandConnectionOptions) {
    const url = new URL(options.url);
    if (options.token !== undefined) url.searchParams.set('token', options.token);
    this.url = url.toString();
    this.policy = { ...DEFAULT_BACKOFF, ...options.backoff };
    this.timers = options.timers ?? realTimers;
    this.random = options.random ?? Math.random;
    const report = options.reportListenerError ?? reportToConsole;
    this.stateListeners = new Listeners(report);
    this.notificationListeners = new Listeners(report);
    this.connect();
  }

  get state(): ConnectionState {
    return this.currentState;
  }

  get epoch(): number {
    return this.opened;
  }

  call<M extends MethodName>(method: M, params: ParamsOf<M>): Promise<ResultOf<M>> {
    if (this.currentState === 'closed') {
      return Promise.reject(new StrandClientError('CLIENT_CLOSED', `${method}: the connection is closed`));
    }
    return new Promise<ResultOf<M>>((resolve, reject) => {
      const id = this.nextId++;
      const frame = JSON.stringify({ jsonrpc: '2.0', id, method, params });
      const outgoing: Outgoing = { id, method, frame, resolve: resolve as (result: unknown) => void, reject };
      if (this.socket !== null && this.currentState === 'open') this.send(this.socket, outgoing);
      else this.waiting.push(outgoing);
    });
  }

  onNotification(listener: (notification: IncomingNotification) => void): () => void {
    return this.notificationListeners.add(listener);
  }

  onStateChange(listener: (state: ConnectionState) => void): () => void {
    return this.stateListeners.add(listener);
  }

  /** Closes for good: no reconnect; every waiting or in-flight call rejects with `CLIENT_CLOSED`. */
  close(): void {
    if (this.currentState === 'closed') return;
    if (this.retryTimer !== null) this.timers.clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const socket = this.socket;
    this.socket = null;
    socket?.close(1000, 'client closed');
    this.rejectAll('CLIENT_CLOSED', 'the connection was closed', true);
    this.setState('closed');
  }

  private connect(): void {
    this.retryTimer = null;
    let socket: WebSocketLike;
    try {
      socket = new this.options.WebSocket(this.url);
    } catch (error) {
      this.options.onProtocolError?.(`could not create a socket: ${String(error)}`);
      this.scheduleRetry();
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      if (this.socket !== socket) return;
      this.opened += 1;
      this.attempt = 0;
      this.setState('open');
      for (const outgoing of this.waiting.splice(0)) this.send(socket, outgoing);
    };
    socket.onmessage = (event) => {
      if (this.socket === socket) this.receive(event.data);
    };
    socket.onclose = () => {
      if (this.socket === socket) this.lost();
    };
    // A close event always follows an error event; `onclose` does the work.
    socket.onerror = () => undefined;
  }

  private send(socket: WebSocketLike, outgoing: Outgoing): void {
    this.inFlight.set(outgoing.id, outgoing);
    try {
      socket.send(outgoing.frame);
    } catch (error) {
      this.inFlight.delete(outgoing.id);
      outgoing.reject(
        new StrandClientError('CLIENT_DISCONNECTED', `${outgoing.method}: the socket refused the frame`, {
          cause: error,
        }),
      );
    }
  }

  private receive(data: unknown): void {
    const message = decodeIncoming(data);
    switch (message.kind) {
      case 'result':
      case 'error': {
        if (message.kind === 'error' && message.id === null) {
          this.uncorrelated(message.error);
          return;
        }
        const outgoing = message.id === null ? undefined : this.inFlight.get(message.id);
        if (outgoing === undefined) {
          this.options.onProtocolError?.(
            message.kind === 'error'
              ? `uncorrelated error ${message.error.code}: ${message.error.message}`
              : `response to unknown id ${String(message.id)}`,
          );
          return;
        }
        this.inFlight.delete(outgoing.id);
        if (message.kind === 'error') outgoing.reject(message.error);
        else {
          // The wire is an edge: a result is checked with its method's schema before anyone trusts it.
          const checked = checkResult(outgoing.method, message.result);
          if (checked.kind === 'valid') outgoing.resolve(checked.result);
          else outgoing.reject(checked.error);
        }
        return;
      }
      case 'notification':
        this.notificationListeners.emit({
          method: message.method,
          params: message.params,
          epoch: this.opened,
        });
        return;
      case 'invalid':
        this.options.onProtocolError?.(message.reason);
        return;
      default:
        assertNever(message, 'incoming message');
    }
  }

  /** An error reply no call can be matched to: some call in flight will never be answered. */
  private uncorrelated(error: StrandRpcError): void {
    this.options.onProtocolError?.(`uncorrelated error ${error.code}: ${error.message}`);
    const socket = this.socket;
    if (socket === null || this.inFlight.size === 0) return;
    this.socket = null;
    socket.close(UNCORRELATED_CLOSE_CODE, 'uncorrelated error reply');
    const calls = [...this.inFlight.values()];
    this.inFlight.clear();
    for (const call of calls)
      call.reject(
        new StrandClientError(
          'CLIENT_DISCONNECTED',
          `${call.method}: the host answered an error it could not match to a request (${error.code}); the socket was dropped`,
          { cause: error },
        ),
      );
    if (this.currentState === 'open') this.setState('reconnecting');
    this.scheduleRetry();
  }

  private lost(): void {
    this.socket = null;
    this.rejectAll('CLIENT_DISCONNECTED', 'the socket closed before the host answered', false);
    if (this.currentState === 'open') this.setState('reconnecting');
    this.scheduleRetry();
  }

  private scheduleRetry(): void {
    const delay = backoffDelay(this.attempt, this.policy, this.random);
    this.attempt += 1;
    this.retryTimer = this.timers.setTimeout(() => this.connect(), delay);
  }

  /** In-flight calls always; calls still waiting for a socket only when the connection closes for good. */
  private rejectAll(
    code: 'CLIENT_CLOSED' | 'CLIENT_DISCONNECTED',
    why: string,
    includeWaiting: boolean,
  ): void {
    const outgoing = [...this.inFlight.values(), ...(includeWaiting ? this.waiting.splice(0) : [])];
    this.inFlight.clear();
    for (const call of outgoing) call.reject(new StrandClientError(code, `${call.method}: ${why}`));
  }

  private setState(state: ConnectionState): void {
    if (state === this.currentState) return;
    this.currentState = state;
    this.stateListeners.emit(state);
  }
}
