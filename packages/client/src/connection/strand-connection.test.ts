import { StrandRpcError } from '@strand/protocol';
import { describe, expect, it } from 'vitest';
import { isStrandClientError } from '../errors.js';
import { StrandConnection, type ConnectionState } from './strand-connection.js';
import type { Timers } from './timers.js';
import type { WebSocketConstructor, WebSocketLike } from './web-socket-like.js';

/** An in-memory socket the test drives by hand. */
class FakeSocket implements WebSocketLike {
  static created: FakeSocket[] = [];
  readonly sent: { id: number; method: string; params: unknown }[] = [];
  closed = false;
  onopen: WebSocketLike['onopen'] = null;
  onmessage: WebSocketLike['onmessage'] = null;
  onclose: WebSocketLike['onclose'] = null;
  onerror: WebSocketLike['onerror'] = null;

  constructor(readonly url: string) {
    FakeSocket.created.push(this);
  }

  send(data: string): void {
    this.sent.push(JSON.parse(data) as { id: number; method: string; params: unknown });
  }

  close(): void {
    this.closed = true;
  }

  open(): void {
    this.onopen?.({});
  }

  receive(message: unknown): void {
    this.onmessage?.({ data: JSON.stringify(message) });
  }

  drop(): void {
    this.onerror?.({});
    this.onclose?.({ code: 1006, reason: '' });
  }
}

/** Timers that run only when the test says so, recording each delay. */
class ManualTimers implements Timers {
  readonly delays: number[] = [];
  private readonly due = new Map<number, () => void>();
  private next = 1;

  setTimeout(callback: () => void, ms: number): unknown {
    this.delays.push(ms);
    const handle = this.next++;
    this.due.set(handle, callback);
    return handle;
  }

  clearTimeout(handle: unknown): void {
    this.due.delete(handle as number);
  }

  get pending(): number {
    return this.due.size;
  }

  runAll(): void {
    const callbacks = [...this.due.values()];
    this.due.clear();
    for (const callback of callbacks) callback();
  }
}

function setup(options: { token?: string; onProtocolError?: (reason: string) => void } = {}) {
  FakeSocket.created = [];
  const timers = new ManualTimers();
  const states: ConnectionState[] = [];
  const connection = new StrandConnection({
    url: 'ws://127.0.0.1:9/rpc',
    WebSocket: FakeSocket,
    timers,
    random: () => 0,
    backoff: { initialMs: 100, maxMs: 1_000, jitter: 0.5 },
    ...options,
  });
  connection.onStateChange((state) => states.push(state));
  const socket = (): FakeSocket => FakeSocket.created.at(-1)!;
  return { connection, timers, states, socket };
}

describe('StrandConnection (scripted socket)', () => {
  it('sends the token as a query parameter', () => {
    const { socket } = setup({ token: 'a b&c' });
    expect(new URL(socket().url).searchParams.get('token')).toBe('a b&c');
  });

  it('holds calls made before the socket opens and sends them on open', async () => {
    const { connection, socket } = setup();
    const result = connection.call('session.cancel', { id: 's' });
    expect(socket().sent).toEqual([]);
    socket().open();
    expect(socket().sent).toEqual([{ jsonrpc: '2.0', id: 1, method: 'session.cancel', params: { id: 's' } }]);
    socket().receive({ jsonrpc: '2.0', id: 1, result: { cancelled: true } });
    await expect(result).resolves.toEqual({ cancelled: true });
  });

  it('correlates responses by id, whatever their order', async () => {
    const { connection, socket } = setup();
    socket().open();
    const a = connection.call('session.rename', { id: 's', title: 'a' });
    const b = connection.call('session.rename', { id: 's', title: 'b' });
    socket().receive({ jsonrpc: '2.0', id: 2, result: { seq: 20 } });
    socket().receive({ jsonrpc: '2.0', id: 1, result: { seq: 10 } });
    await expect(a).resolves.toEqual({ seq: 10 });
    await expect(b).resolves.toEqual({ seq: 20 });
  });

  it('rejects with a StrandRpcError carrying data.code', async () => {
    const { connection, socket } = setup();
    socket().open();
    const call = connection.call('session.follow', { id: 'nope' });
    socket().receive({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32020, message: 'no such session', data: { code: 'SESSION_QUERY_NOT_FOUND' } },
    });
    const error: unknown = await call.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StrandRpcError);
    expect(error).toMatchObject({ code: 'SESSION_QUERY_NOT_FOUND', rpcCode: -32020 });
  });

  it('a refusal carrying the call id (HOST_TOO_MANY_REQUESTS) rejects that call alone', async () => {
    const { connection, socket } = setup();
    socket().open();
    const refused = connection.call('session.cancel', { id: 'a' });
    const served = connection.call('session.cancel', { id: 'b' });
    socket().receive({
      jsonrpc: '2.0',
      id: 1,
      error: {
        code: -32002,
        message: 'more than 64 requests in flight',
        data: { code: 'HOST_TOO_MANY_REQUESTS' },
      },
    });
    const error: unknown = await refused.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StrandRpcError);
    expect(error).toMatchObject({ code: 'HOST_TOO_MANY_REQUESTS', rpcCode: -32002 });
    socket().receive({ jsonrpc: '2.0', id: 2, result: { cancelled: false } });
    await expect(served).resolves.toEqual({ cancelled: false });
  });

  it('an error with id null while calls are in flight drops the socket: each call rejects CLIENT_DISCONNECTED, none waits forever', async () => {
    const problems: string[] = [];
    const { connection, socket, timers, states } = setup({
      onProtocolError: (reason) => problems.push(reason),
    });
    socket().open();
    const first = socket();
    const a = connection.call('session.cancel', { id: 'a' });
    const b = connection.call('session.list', {});
    const uncorrelated = {
      jsonrpc: '2.0',
      id: null,
      error: { code: -32001, message: 'frame too large', data: { code: 'HOST_FRAME_TOO_LARGE' } },
    };
    first.receive(uncorrelated);
    for (const call of [a, b]) {
      const error: unknown = await call.catch((caught: unknown) => caught);
      expect(isStrandClientError(error, 'CLIENT_DISCONNECTED')).toBe(true);
      expect((error as Error).cause).toMatchObject({ code: 'HOST_FRAME_TOO_LARGE' });
    }
    expect(first.closed).toBe(true);
    expect(problems).toEqual(['uncorrelated error HOST_FRAME_TOO_LARGE: frame too large']);
    expect(states).toEqual(['open', 'reconnecting']);
    timers.runAll();
    socket().open();
    expect(socket()).not.toBe(first);
    expect(connection.state).toBe('open');

    // With nothing in flight it answers no call: reported, and the socket stays.
    socket().receive(uncorrelated);
    expect(problems).toHaveLength(2);
    expect(socket().closed).toBe(false);
  });

  it('rejects in-flight calls with CLIENT_DISCONNECTED when the socket drops, and does not resend them', async () => {
    const { connection, socket, timers } = setup();
    socket().open();
    const call = connection.call('session.prompt', { id: 's', text: 'hi' });
    const first = socket();
    first.drop();
    const error: unknown = await call.catch((caught: unknown) => caught);
    expect(isStrandClientError(error, 'CLIENT_DISCONNECTED')).toBe(true);
    timers.runAll();
    socket().open();
    expect(socket()).not.toBe(first);
    expect(socket().sent).toEqual([]);
  });

  it('goes connecting → open → reconnecting → open, with growing jittered delays while the host is down', () => {
    const { socket, timers, states, connection } = setup();
    socket().open();
    socket().drop();
    for (let round = 0; round < 4; round += 1) {
      timers.runAll();
      socket().drop();
    }
    timers.runAll();
    socket().open();
    expect(states).toEqual(['open', 'reconnecting', 'open']);
    // random() = 0 and jitter 0.5: the full capped delay each time, doubling to the 1 s cap.
    expect(timers.delays).toEqual([100, 200, 400, 800, 1_000]);
    expect(connection.epoch).toBe(2);
  });

  it('restarts the backoff after a successful open', () => {
    const { socket, timers } = setup();
    socket().drop();
    timers.runAll();
    socket().drop();
    timers.runAll();
    socket().open();
    socket().drop();
    expect(timers.delays).toEqual([100, 200, 100]);
  });

  it('retries the first connection while staying connecting', () => {
    const { socket, timers, states, connection } = setup();
    socket().drop();
    expect(connection.state).toBe('connecting');
    timers.runAll();
    socket().open();
    expect(states).toEqual(['open']);
  });

  it('close() rejects waiting and in-flight calls with CLIENT_CLOSED, stops reconnecting, refuses new calls', async () => {
    const { connection, socket, timers } = setup();
    socket().open();
    const inFlight = connection.call('session.cancel', { id: 'a' });
    connection.close();
    expect(socket().closed).toBe(true);
    expect(timers.pending).toBe(0);
    for (const call of [inFlight, connection.call('session.cancel', { id: 'b' })]) {
      const error: unknown = await call.catch((caught: unknown) => caught);
      expect(isStrandClientError(error, 'CLIENT_CLOSED')).toBe(true);
    }
    expect(connection.state).toBe('closed');
  });

  it('dispatches notifications with the epoch of their socket', () => {
    const { connection, socket, timers } = setup();
    const seen: unknown[] = [];
    connection.onNotification((notification) => seen.push(notification));
    socket().open();
    socket().receive({ jsonrpc: '2.0', method: 'follow.state', params: { live: true } });
    socket().drop();
    timers.runAll();
    socket().open();
    socket().receive({ jsonrpc: '2.0', method: 'follow.state', params: { live: false } });
    expect(seen).toEqual([
      { method: 'follow.state', params: { live: true }, epoch: 1 },
      { method: 'follow.state', params: { live: false }, epoch: 2 },
    ]);
  });

  it('reports malformed frames and responses nobody waits for, and keeps working', async () => {
    const problems: string[] = [];
    FakeSocket.created = [];
    const connection = new StrandConnection({
      url: 'ws://127.0.0.1:9/rpc',
      WebSocket: FakeSocket,
      timers: new ManualTimers(),
      onProtocolError: (reason) => problems.push(reason),
    });
    const socket = FakeSocket.created[0]!;
    socket.open();
    socket.onmessage?.({ data: 'garbage' });
    socket.receive({ jsonrpc: '2.0', id: 99, result: 1 });
    const call = connection.call('session.cancel', { id: 's' });
    socket.receive({ jsonrpc: '2.0', id: 1, result: { cancelled: false } });
    await expect(call).resolves.toEqual({ cancelled: false });
    expect(problems).toEqual(['not JSON', 'response to unknown id 99']);
  });

  it('a socket the constructor cannot create is retried', () => {
    let failures = 1;
    const timers = new ManualTimers();
    const Flaky = function (this: unknown, url: string) {
      if (failures-- > 0) throw new Error('refused');
      return new FakeSocket(url);
    } as unknown as WebSocketConstructor;
    FakeSocket.created = [];
    const connection = new StrandConnection({ url: 'ws://127.0.0.1:9/rpc', WebSocket: Flaky, timers });
    expect(FakeSocket.created).toHaveLength(0);
    timers.runAll();
    FakeSocket.created[0]!.open();
    expect(connection.state).toBe('open');
  });
});

describe('WebSocketLike', () => {
  it('is satisfied by the platform WebSocket constructor (browser / Node global)', () => {
    const platform: WebSocketConstructor | undefined = globalThis.WebSocket;
    expect(platform === undefined || typeof platform === 'function').toBe(true);
  });
});
