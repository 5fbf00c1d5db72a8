import { StrandRpcError } from '@strand/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { isStrandClientError } from '../errors.js';
import { FakeHost, FakeHostError } from '../test/fake-host.js';
import { StrandConnection, type ConnectionState } from './strand-connection.js';

let host: FakeHost;
const connections: StrandConnection[] = [];

function connect(options: { token?: string } = {}): StrandConnection {
  const connection = new StrandConnection({
    url: host.url,
    WebSocket,
    backoff: { initialMs: 10, maxMs: 50 },
    ...options,
  });
  connections.push(connection);
  return connection;
}

async function opened(connection: StrandConnection): Promise<void> {
  await vi.waitFor(() => expect(connection.state).toBe('open'));
}

beforeEach(async () => {
  host = await FakeHost.start();
});

afterEach(async () => {
  for (const connection of connections.splice(0)) connection.close();
  await host.close();
});

describe('StrandConnection over a real WebSocket', () => {
  it('correlates concurrent calls with responses sent in another order', async () => {
    host.handle('session.rename', async (params) => {
      // Longer titles answer sooner: the replies come back reversed.
      await new Promise((resolve) => setTimeout(resolve, 60 - params.title.length * 10));
      return { seq: params.title.length };
    });
    const connection = connect();
    const titles = ['a', 'bb', 'ccc', 'dddd', 'eeeee'];
    const results = await Promise.all(
      titles.map((title) => connection.call('session.rename', { id: 's', title })),
    );
    expect(results).toEqual(titles.map((title) => ({ seq: title.length })));
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
    host.handle('session.prompt', () => new Promise(() => undefined)); // never answers
    host.handle('session.cancel', () => ({ cancelled: true }));
    const connection = connect();
    const states: ConnectionState[] = [];
    connection.onStateChange((state) => states.push(state));
    await opened(connection);
    const pending = connection.call('session.prompt', { id: 's', text: 'hi' });
    await vi.waitFor(() =>
      expect(host.requests.some((request) => request.method === 'session.prompt')).toBe(true),
    );
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
    connection.onNotification((notification) => seen.push(notification));
    await opened(connection);
    host.sendToAll({
      jsonrpc: '2.0',
      method: 'follow.state',
      params: { followId: 'f', generation: 1, live: true, busy: false },
    });
    await vi.waitFor(() => expect(seen).toHaveLength(1));
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
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(host.connectionUrls).toHaveLength(1);
    expect(host.socketCount).toBe(0);
  });

  it('close() while the first connection attempt is still pending neither throws nor retries', async () => {
    const connection = connect();
    connection.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(connection.state).toBe('closed');
    expect(host.socketCount).toBe(0);
  });
});
