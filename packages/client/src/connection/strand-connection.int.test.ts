import { StrandRpcError } from '@strand/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { isStrandClientError } from '../errors.js';
import { FakeHost, FakeHostError } from '../test/fake-host.js';
import { StrandConnection, type ConnectionState } from './strand-connection.js';
import { realTimers, type Timers } from './timers.js';

let host: FakeHost;
const connections: StrandConnection[] = [];
/** Every socket the connections of this test created, in order. */
let sockets: WebSocket[] = [];
/** The delay of every reconnect the connections of this test scheduled. */
let retries: number[] = [];

/** Real sockets, recorded, so a test waits for a socket's own close event instead of sleeping. */
class RecordedWebSocket extends WebSocket {
  constructor(url: string) {
    super(url);
    sockets.push(this);
  }
}

/** Real timers, recorded: a reconnect is only ever scheduled through them, so none recorded means none happens. */
const recordedTimers: Timers = {
  setTimeout: (callback, ms) => {
    retries.push(ms);
    return realTimers.setTimeout(callback, ms);
  },
  clearTimeout: (handle) => realTimers.clearTimeout(handle),
};

function connect(options: { token?: string } = {}): StrandConnection {
  const connection = new StrandConnection({
    url: host.url,
    WebSocket: RecordedWebSocket,
    timers: recordedTimers,
    backoff: { initialMs: 10, maxMs: 50 },
    ...options,
  });
  connections.push(connection);
  return connection;
}

const closeEvent = (socket: WebSocket): Promise<void> =>
  socket.readyState === WebSocket.CLOSED
    ? Promise.resolve()
    : new Promise((resolve) => socket.once('close', () => resolve()));

/** Resolves on the connection's own `open` state change (no polling). */
function opened(connection: StrandConnection): Promise<void> {
  if (connection.state === 'open') return Promise.resolve();
  return new Promise((resolve) => {
    const off = connection.onStateChange((state) => {
      if (state !== 'open') return;
      off();
      resolve();
    });
  });
}

beforeEach(async () => {
  sockets = [];
  retries = [];
  host = await FakeHost.start();
});

afterEach(async () => {
  for (const connection of connections.splice(0)) connection.close();
  await host.close();
});

describe('StrandConnection over a real WebSocket', () => {
  it('correlates concurrent calls with responses sent in another order', async () => {
    const titles = ['a', 'bb', 'ccc', 'dddd', 'eeeee'];
    // Each call is held on the host until all have arrived; then they are answered last first.
    const held: { title: string; answer: (result: { seq: number }) => void }[] = [];
    let allArrived!: () => void;
    const arrived = new Promise<void>((resolve) => (allArrived = resolve));
    host.handle('session.rename', (params) => {
      const answer = new Promise<{ seq: number }>((resolve) =>
        held.push({ title: params.title, answer: resolve }),
      );
      if (held.length === titles.length) allArrived();
      return answer;
    });
    const connection = connect();
    const calls = titles.map((title) => connection.call('session.rename', { id: 's', title }));
    await arrived;
    const answered: string[] = [];
    for (const { title, answer } of [...held].reverse()) {
      answered.push(title);
      answer({ seq: title.length });
    }
    expect(answered).toEqual([...titles].reverse());
    await expect(Promise.all(calls)).resolves.toEqual(titles.map((title) => ({ seq: title.length })));
  });

  it('rejects with a typed StrandRpcError carrying data.code', async () => {
    host.handle('session.follow', () => {
      throw new FakeHostError('SESSION_QUERY_NOT_FOUND', 'no session nope');
    });
    const connection = connect();
    const error: unknown = await connection
      .call('session.follow', { id: 'nope' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StrandRpcError);
    expect(error).toMatchObject({
      code: 'SESSION_QUERY_NOT_FOUND',
      rpcCode: -32020,
      message: 'no session nope',
    });
    const unknown: unknown = await connection
      .call('session.search', { query: 'x' })
      .catch((caught: unknown) => caught);
    expect(unknown).toMatchObject({ code: 'RPC_METHOD_NOT_FOUND', rpcCode: -32601 });
  });

  it('sends the token as the token query parameter', async () => {
    const connection = connect({ token: 's3cret' });
    await opened(connection);
    expect(host.connectionUrls).toEqual(['/rpc?token=s3cret']);
  });

  it('rejects pending calls with CLIENT_DISCONNECTED when the socket drops, then reconnects and serves new calls', async () => {
    let promptArrived!: () => void;
    const arrived = new Promise<void>((resolve) => (promptArrived = resolve));
    host.handle('session.prompt', () => {
      promptArrived();
      return new Promise(() => undefined); // never answers
    });
    host.handle('session.cancel', () => ({ cancelled: true }));
    const connection = connect();
    const states: ConnectionState[] = [];
    connection.onStateChange((state) => states.push(state));
    await opened(connection);
    const pending = connection.call('session.prompt', { id: 's', text: 'hi' });
    await arrived;
    host.dropAll();
    const error: unknown = await pending.catch((caught: unknown) => caught);
    expect(isStrandClientError(error, 'CLIENT_DISCONNECTED')).toBe(true);
    await expect(connection.call('session.cancel', { id: 's' })).resolves.toEqual({ cancelled: true });
    expect(states).toEqual(['open', 'reconnecting', 'open']);
    expect(connection.epoch).toBe(2);
    // The dropped call was not resent on the new socket.
    expect(host.requests.filter((request) => request.method === 'session.prompt')).toHaveLength(1);
  });

  it('dispatches notifications', async () => {
    const connection = connect();
    const seen: unknown[] = [];
    const first = new Promise<void>((resolve) =>
      connection.onNotification((notification) => {
        seen.push(notification);
        resolve();
      }),
    );
    await opened(connection);
    host.sendToAll({
      jsonrpc: '2.0',
      method: 'follow.state',
      params: { followId: 'f', generation: 1, live: true, busy: false },
    });
    await first;
    expect(seen).toHaveLength(1);
    expect(seen[0]).toEqual({
      method: 'follow.state',
      params: { followId: 'f', generation: 1, live: true, busy: false },
      epoch: 1,
    });
  });

  it('close() rejects in-flight calls with CLIENT_CLOSED and does not reconnect', async () => {
    host.handle('session.prompt', () => new Promise(() => undefined));
    const connection = connect();
    await opened(connection);
    const pending = connection.call('session.prompt', { id: 's', text: 'hi' });
    connection.close();
    const error: unknown = await pending.catch((caught: unknown) => caught);
    expect(isStrandClientError(error, 'CLIENT_CLOSED')).toBe(true);
    // Once the socket's own close event has run, nothing can reconnect but a scheduled retry.
    await closeEvent(sockets[0]!);
    expect(retries).toEqual([]);
    expect(sockets).toHaveLength(1);
    expect(host.connectionUrls).toHaveLength(1);
    await host.whenNoSockets();
  });

  it('close() while the first connection attempt is still pending neither throws nor retries', async () => {
    const connection = connect();
    connection.close();
    expect(connection.state).toBe('closed');
    await closeEvent(sockets[0]!);
    expect(connection.state).toBe('closed');
    expect(retries).toEqual([]);
    expect(sockets).toHaveLength(1);
    await host.whenNoSockets();
  });
});
