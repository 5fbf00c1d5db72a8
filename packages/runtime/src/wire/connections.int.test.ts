/**
 * Connection caps at the host's TCP edge: every socket counts from its first moment (before it
 * sends a byte), one past a cap is answered HTTP 503 `HOST_TOO_MANY_CONNECTIONS` and closed, and a
 * socket that sends no complete request within `handshakeTimeoutMs` is closed. Every wait is on a
 * socket's events; the one timer is the host's configured handshake timeout.
 */
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { rawGet } from '@strand/test-support';
import { startTestHost, type TestHost } from '../testing/test-host.js';

let testHost: TestHost | undefined;
const opened: Socket[] = [];
afterEach(async () => {
  for (const socket of opened.splice(0)) socket.destroy();
  await testHost?.close();
  testHost = undefined;
});

interface IdleEnd {
  /** What the host wrote before closing (empty: closed without a word). */
  readonly received: string;
}

/** A raw TCP socket that sends nothing; resolves once the host has closed it. */
function idleSocket(port: number): { socket: Socket; closed: Promise<IdleEnd> } {
  const socket = connect({ host: '127.0.0.1', port });
  opened.push(socket);
  let received = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (received += chunk));
  // A reset instead of a FIN is still a close; the test only needs to know the host let go.
  socket.on('error', () => undefined);
  const closed = new Promise<IdleEnd>((resolve) => socket.once('close', () => resolve({ received })));
  return { socket, closed };
}

function errorCodeOf(answer: string): unknown {
  const body = answer.slice(answer.indexOf('\r\n\r\n') + 4);
  return (JSON.parse(body) as { error: { data: { code: string; limit: string } } }).error.data;
}

/** An upgrade of `/rpc` refused before a WebSocket exists: its status and body. */
function refusedUpgrade(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.once('open', () => reject(new Error('the upgrade was accepted')));
    ws.once('unexpected-response', (_request, response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.once('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    ws.once('error', reject);
  });
}

describe('connection caps', () => {
  it('1,000 idle raw sockets against a cap of 500: those past it get 503 at once, the rest are closed by the handshake timeout, and the host stays healthy', async () => {
    testHost = await startTestHost({
      prefix: 'strand-connection-caps',
      runtime: { syncSearch: false },
      host: {
        limits: { maxConnections: 500, maxConnectionsPerAddress: 1000, handshakeTimeoutMs: 300 },
      },
    });
    const { port } = testHost.host;
    const ends = await Promise.all(Array.from({ length: 1000 }, () => idleSocket(port).closed));

    const refused = ends.filter((end) => end.received.length > 0);
    const timedOut = ends.filter((end) => end.received.length === 0);
    for (const end of refused) {
      expect(end.received).toMatch(/^HTTP\/1\.1 503 /);
      expect(errorCodeOf(end.received)).toEqual({ code: 'HOST_TOO_MANY_CONNECTIONS', limit: 'total' });
    }
    // At most 500 were held at once; those admitted were closed for sending nothing.
    expect(timedOut.length).toBeGreaterThanOrEqual(500);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.length + timedOut.length).toBe(1000);

    const health = await rawGet(`${testHost.host.url}/health`);
    expect(health.status).toBe(200);
    const client = await testHost.connect();
    expect(await client.call('session.list')).toEqual({ sessions: [] });
  });

  it('a connection past the per-address cap is refused 503 with limit address; an upgraded WebSocket is no longer timed', async () => {
    testHost = await startTestHost({
      prefix: 'strand-connection-caps',
      runtime: { syncSearch: false },
      host: { limits: { maxConnections: 100, maxConnectionsPerAddress: 2, handshakeTimeoutMs: 300 } },
    });
    // An upgraded socket outlives the handshake timeout: it is served after a raw socket timed out.
    const client = await testHost.connect();
    const idle = idleSocket(testHost.host.port);
    await new Promise<void>((resolve) => idle.socket.once('connect', () => resolve()));
    const refusal = await refusedUpgrade(testHost.host.rpcUrl);
    expect(refusal.status).toBe(503);
    expect(JSON.parse(refusal.body)).toMatchObject({
      error: { data: { code: 'HOST_TOO_MANY_CONNECTIONS', limit: 'address' } },
    });
    expect(await idle.closed).toEqual({ received: '' });
    expect(await client.call('session.list')).toEqual({ sessions: [] });
  });
});
