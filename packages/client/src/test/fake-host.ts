/**
 * A scripted stand-in for the Strand host, on a real `ws` WebSocketServer on 127.0.0.1 (port 0),
 * for the client's integration tests. It keeps each session's log and projections in memory and
 * speaks the wire of `@strand/protocol`: follow (snapshot result first, then frames), page, unfollow,
 * plus per-method overrides a test installs with `handle`. Test-only: it runs in Node.
 */
import type { AddressInfo } from 'node:net';
import {
  ERROR_TABLE,
  type FollowSnapshot,
  type Methods,
  type ParamsOf,
  type ResultOf,
  type WireErrorCode,
  type WireEvent,
  type WireSessionHeader,
} from '@strand/protocol';
import { WebSocketServer, type WebSocket } from 'ws';
import { SessionId } from '@strand/session';

export class FakeHostError extends Error {
  constructor(
    readonly code: WireErrorCode,
    message: string = code,
  ) {
    super(message);
  }
}

export interface FakeSession {
  header: WireSessionHeader;
  events: WireEvent[];
  projections: Map<string, { value: unknown; seq: number }>;
  live: boolean;
  busy: boolean;
}

export interface FakeFollower {
  readonly socket: WebSocket;
  readonly sessionId: string;
  readonly followId: string;
  readonly generation: number;
}

type Handler = (params: Record<string, unknown>, socket: WebSocket) => unknown;

export class FakeHost {
  readonly sessions = new Map<string, FakeSession>();
  readonly followers = new Set<FakeFollower>();
  /** Every request received, in order. */
  readonly requests: { method: string; params: Record<string, unknown> }[] = [];
  /** The request URL of every accepted socket (to check the token). */
  readonly connectionUrls: string[] = [];
  /** The tail window of a snapshot when the request names none. */
  defaultWindow = 5;
  /** While true, `session.follow` requests wait for `releaseFollows()`; frames of those generations wait too. */
  holdFollows = false;
  /** Called right after a snapshot result is sent (synchronously, before anything else). */
  afterSnapshot: ((follower: FakeFollower) => void) | null = null;
  private readonly handlers = new Map<string, Handler>();
  private readonly held: (() => void)[] = [];
  private readonly requestWatchers = new Set<() => void>();
  private nextFollow = 1;
  private nextGeneration = 1;

  private constructor(
    private readonly server: WebSocketServer,
    readonly url: string,
  ) {}

  static async start(): Promise<FakeHost> {
    const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => server.once('listening', resolve));
    const { port } = server.address() as AddressInfo;
    const host = new FakeHost(server, `ws://127.0.0.1:${port}/rpc`);
    server.on('connection', (socket, request) => {
      host.connectionUrls.push(request.url ?? '');
      socket.on('message', (data: Buffer) => host.receive(socket, data.toString('utf8')));
      socket.on('close', () => {
        for (const follower of host.followers)
          if (follower.socket === socket) host.followers.delete(follower);
      });
    });
    return host;
  }

  get socketCount(): number {
    return this.server.clients.size;
  }

  /** Resolves once at least `count` requests received so far match `predicate` (checked at each request). */
  untilRequests(
    predicate: (request: { method: string; params: Record<string, unknown> }) => boolean,
    count: number,
  ): Promise<void> {
    const enough = (): boolean => this.requests.filter(predicate).length >= count;
    if (enough()) return Promise.resolve();
    return new Promise((resolve) => {
      const check = (): void => {
        if (!enough()) return;
        this.requestWatchers.delete(check);
        resolve();
      };
      this.requestWatchers.add(check);
    });
  }

  /** Resolves once the host holds no socket (each close event seen), without polling a clock. */
  async whenNoSockets(): Promise<void> {
    for (const socket of [...this.server.clients]) {
      if (socket.readyState !== socket.CLOSED)
        await new Promise<void>((resolve) => socket.once('close', () => resolve()));
    }
  }

  /** Overrides a method; a thrown `FakeHostError` becomes a typed wire error. */
  handle<M extends keyof HandledMethods>(
    method: M,
    handler: (params: HandledMethods[M]['params'], socket: WebSocket) => unknown,
  ): void {
    this.handlers.set(method, handler);
  }

  addSession(id: string, eventCount = 0, createdAt = 1_000): FakeSession {
    const session: FakeSession = {
      header: { version: 1, id: SessionId(id), createdAt, isSeeded: false },
      events: [],
      projections: new Map(),
      live: true,
      busy: false,
    };
    this.sessions.set(id, session);
    for (let index = 0; index < eventCount; index += 1) this.pushEvent(session);
    return session;
  }

  /**
   * Appends `count` events and sends them to every follower of the session, one frame per
   * contiguous run of events `drop` lets through (dropped events stay in the log, for `page`).
   */
  append(id: string, count: number, drop: (seq: number) => boolean = () => false): void {
    const session = this.session(id);
    const added = Array.from({ length: count }, () => this.pushEvent(session));
    let run: WireEvent[] = [];
    const flush = (): void => {
      if (run.length > 0) this.broadcast(id, 'follow.events', { events: run });
      run = [];
    };
    for (const event of added) {
      if (drop(event.seq)) flush();
      else run.push(event);
    }
    flush();
  }

  /** Sets a projection at the session's last seq and sends the frame. */
  setProjection(id: string, key: string, value: unknown): void {
    const session = this.session(id);
    const seq = session.events.length - 1;
    session.projections.set(key, { value, seq });
    this.broadcast(id, 'follow.projection', { key, value, seq });
  }

  setState(id: string, live: boolean, busy: boolean): void {
    Object.assign(this.session(id), { live, busy });
    this.broadcast(id, 'follow.state', { live, busy });
  }

  /** Sends `follow.subagents` to every follower of the session (a child of it appeared or settled). */
  subagentsChanged(id: string): void {
    this.broadcast(id, 'follow.subagents', {});
  }

  /** Sends `follow.resync` to every follower of the session and forgets them (their frames stop). */
  resync(id: string, reason = 'behind'): void {
    for (const follower of [...this.followers]) {
      if (follower.sessionId !== id) continue;
      this.send(follower.socket, {
        jsonrpc: '2.0',
        method: 'follow.resync',
        params: this.address(follower, { reason }),
      });
      this.followers.delete(follower);
    }
  }

  /** Sends a raw frame to every socket (e.g. a forged frame of another generation). */
  sendToAll(message: unknown): void {
    for (const socket of this.server.clients) this.send(socket, message);
  }

  releaseFollows(): void {
    this.holdFollows = false;
    for (const release of this.held.splice(0)) release();
  }

  /** Kills every socket, as a network failure would (no close handshake). */
  dropAll(): void {
    for (const socket of this.server.clients) socket.terminate();
    this.followers.clear();
  }

  async close(): Promise<void> {
    this.dropAll();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  snapshotOf(id: string, followId: string, generation: number, window: number): FollowSnapshot {
    const session = this.session(id);
    const cursor = session.events.length;
    const firstSeq = Math.max(0, cursor - window);
    const values: Record<string, unknown> = {};
    for (const [key, row] of session.projections) values[key] = row.value;
    return {
      followId,
      generation,
      header: session.header,
      inheritedEventCount: 0,
      cursor,
      firstSeq,
      events: session.events.slice(firstSeq),
      baseline: { asOfSeq: cursor - 1, values },
      live: session.live,
      busy: session.busy,
    };
  }

  private pushEvent(session: FakeSession): WireEvent {
    const seq = session.events.length;
    const event: WireEvent = {
      type: 'user/message',
      seq,
      time: 1_000 + seq,
      data: { content: `m${seq}`, author: 'human' },
    };
    session.events.push(event);
    return event;
  }

  private session(id: string): FakeSession {
    const session = this.sessions.get(id);
    if (session === undefined) throw new FakeHostError('SESSION_QUERY_NOT_FOUND', `no session ${id}`);
    return session;
  }

  private receive(socket: WebSocket, text: string): void {
    const request = JSON.parse(text) as { id: number; method: string; params: Record<string, unknown> };
    this.requests.push({ method: request.method, params: request.params });
    for (const watcher of [...this.requestWatchers]) watcher();
    const reply = (result: unknown): void => this.send(socket, { jsonrpc: '2.0', id: request.id, result });
    const fail = (error: unknown): void => {
      const code: WireErrorCode = error instanceof FakeHostError ? error.code : 'RPC_INTERNAL_ERROR';
      const message = error instanceof Error ? error.message : String(error);
      this.send(socket, {
        jsonrpc: '2.0',
        id: request.id,
        error: { code: ERROR_TABLE[code].rpc, message, data: { code } },
      });
    };
    const run = (): void => {
      try {
        const handler = this.handlers.get(request.method);
        const result =
          handler !== undefined
            ? handler(request.params, socket)
            : this.builtIn(request.method, request.params, socket);
        if (result instanceof Promise) result.then(reply, fail);
        else if (request.method === 'session.follow' && handler === undefined)
          this.replyFollow(socket, request.id, result as FollowSnapshot);
        else reply(result);
      } catch (error) {
        fail(error);
      }
    };
    if (request.method === 'session.follow' && this.holdFollows) this.held.push(run);
    else run();
  }

  private builtIn(method: string, params: Record<string, unknown>, socket: WebSocket): unknown {
    switch (method) {
      case 'session.follow': {
        const id = String(params.id);
        const window = typeof params.window === 'number' ? params.window : this.defaultWindow;
        const snapshot = this.snapshotOf(id, `f${this.nextFollow++}`, this.nextGeneration++, window);
        this.followers.add({
          socket,
          sessionId: id,
          followId: snapshot.followId,
          generation: snapshot.generation,
        });
        return snapshot;
      }
      case 'session.unfollow': {
        const follower = [...this.followers].find(
          (candidate) => candidate.followId === params.followId && candidate.socket === socket,
        );
        if (follower === undefined) throw new FakeHostError('HOST_FOLLOW_NOT_FOUND');
        this.followers.delete(follower);
        return { ok: true };
      }
      case 'session.page':
        return this.page(params as ParamsOf<'session.page'>);
      default:
        throw new FakeHostError('RPC_METHOD_NOT_FOUND', `no method ${method}`);
    }
  }

  /** The snapshot result, then (same tick) whatever `afterSnapshot` sends: the host's ordering guarantee. */
  private replyFollow(socket: WebSocket, id: number, snapshot: FollowSnapshot): void {
    this.send(socket, { jsonrpc: '2.0', id, result: snapshot });
    const follower = [...this.followers].find((candidate) => candidate.followId === snapshot.followId);
    if (follower !== undefined) this.afterSnapshot?.(follower);
  }

  /** `beforeSeq`: the `limit` events before it. `fromSeq`/`toSeq`: `[fromSeq, toSeq)`, at most `limit`. */
  private page(params: ParamsOf<'session.page'>): ResultOf<'session.page'> {
    const session = this.session(params.id);
    const cursor = session.events.length;
    const limit = params.limit ?? 100;
    if (params.beforeSeq !== undefined) {
      const firstSeq = Math.max(0, params.beforeSeq - limit);
      return { firstSeq, events: session.events.slice(firstSeq, params.beforeSeq), cursor };
    }
    const firstSeq = Math.min(params.fromSeq ?? 0, cursor);
    const end = Math.min(params.toSeq ?? cursor, cursor, firstSeq + limit);
    return { firstSeq, events: session.events.slice(firstSeq, end), cursor };
  }

  private broadcast(id: string, method: string, body: Record<string, unknown>): void {
    for (const follower of this.followers) {
      if (follower.sessionId === id)
        this.send(follower.socket, { jsonrpc: '2.0', method, params: this.address(follower, body) });
    }
  }

  private address(follower: FakeFollower, body: Record<string, unknown>): Record<string, unknown> {
    return { followId: follower.followId, generation: follower.generation, ...body };
  }

  private send(socket: WebSocket, message: unknown): void {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
  }
}

/** Methods a test may override, with their wire params. */
type HandledMethods = { [M in keyof Methods]: { params: ParamsOf<M> } };
