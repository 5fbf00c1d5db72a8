import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import { wireError } from './errors.js';
import { isLoopbackHost, presentedToken, tokenMatches } from './auth.js';
import { FollowHub } from './follow/follow-hub.js';
import type { Outbound } from './follow/outbound.js';
import { errorReply, handleFrame, type ConnectionContext } from './rpc/dispatch.js';
import { DEFAULT_LIMITS, type HostLimits, type HostServices } from './services.js';
import { serveStatic } from './static-files.js';

export interface HostOptions {
  readonly services: HostServices;
  /** Interface to bind (default 127.0.0.1). Anything but loopback requires `token`. */
  readonly host?: string;
  /** Port (default 0: any free port). */
  readonly port?: number;
  /** Required on every connection when set; mandatory off loopback. */
  readonly token?: string;
  readonly limits?: Partial<HostLimits>;
  /** A built web UI folder to serve over HTTP. */
  readonly webRoot?: string;
}

export interface RunningHost {
  readonly url: string;
  readonly rpcUrl: string;
  readonly port: number;
  readonly hub: FollowHub;
  /** Open WebSocket connections. */
  readonly connections: number;
  close(): Promise<void>;
}

export class HostConfigError extends Error {
  override readonly name = 'HostConfigError';
  readonly code = 'HOST_TOKEN_REQUIRED';
}

/**
 * The Strand host: JSON-RPC 2.0 over one WebSocket per client at `/rpc`, `/health`, and the web
 * UI. One bad request gets one typed error; the connection and every other client go on.
 */
export async function startHost(options: HostOptions): Promise<RunningHost> {
  const bind = options.host ?? '127.0.0.1';
  if (!isLoopbackHost(bind) && (options.token === undefined || options.token.length < 16)) {
    throw new HostConfigError(`binding ${bind} (not loopback) requires a token of at least 16 characters`);
  }
  const limits: HostLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const hub = new FollowHub(options.services, limits.maxQueuedBytes);
  const webRoot = options.webRoot === undefined ? undefined : path.resolve(options.webRoot);
  const sockets = new Set<WebSocket>();

  const server: Server = createServer((request, response) => {
    if (request.url === '/health') {
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ ok: true, connections: sockets.size }));
      return;
    }
    if (webRoot === undefined) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('no web UI configured');
      return;
    }
    serveStatic(webRoot, request, response).catch(() => response.writeHead(500).end());
  });

  // The frame limit is checked per message so an oversized request gets a typed error; `maxPayload`
  // is only the hard ceiling past which ws drops the connection.
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: Math.max(limits.maxFrameBytes * 4, 16 * 1024 * 1024),
  });
  server.on('upgrade', (request, socket, head) => {
    const pathname = new URL(request.url ?? '/', 'http://host').pathname;
    if (pathname !== '/rpc') {
      socket.end('HTTP/1.1 404 Not Found\r\n\r\n');
      return;
    }
    if (options.token !== undefined && !tokenMatches(options.token, presentedToken(request))) {
      socket.end(
        'HTTP/1.1 401 Unauthorized\r\ncontent-type: application/json\r\n\r\n' +
          JSON.stringify({ error: wireError('HOST_UNAUTHORIZED', 'a valid token is required') }),
      );
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request));
  });

  wss.on('connection', (ws: WebSocket) => {
    sockets.add(ws);
    const controller = new AbortController();
    const out: Outbound = {
      get bufferedAmount() {
        return ws.bufferedAmount;
      },
      get open() {
        return ws.readyState === ws.OPEN;
      },
      send: (text, done) => ws.send(text, done),
    };
    const ctx: ConnectionContext = {
      services: options.services,
      hub,
      limits,
      out,
      signal: controller.signal,
    };
    let inFlight = 0;
    ws.on('message', (data, isBinary) => {
      const size = Array.isArray(data) ? data.reduce((n, b) => n + b.length, 0) : data.byteLength;
      if (isBinary || size > limits.maxFrameBytes) {
        const error = isBinary
          ? wireError('RPC_INVALID_REQUEST', 'binary frames are not accepted')
          : wireError('HOST_FRAME_TOO_LARGE', `frame of ${size} bytes exceeds ${limits.maxFrameBytes}`);
        ws.send(errorReply(null, error).text);
        return;
      }
      if (inFlight >= limits.maxInFlight) {
        ws.send(
          errorReply(
            null,
            wireError('HOST_TOO_MANY_REQUESTS', `more than ${limits.maxInFlight} requests in flight`),
          ).text,
        );
        return;
      }
      inFlight++;
      const text = Buffer.isBuffer(data)
        ? data.toString('utf8')
        : Buffer.from(data as ArrayBuffer).toString('utf8');
      handleFrame(ctx, text)
        .then((reply) => {
          if (ws.readyState !== ws.OPEN) return;
          ws.send(reply.text, (error) => {
            if (error === undefined || error === null) reply.afterSend?.();
          });
        })
        .catch((error: unknown) => console.error('strand host: reply failed', error))
        .finally(() => inFlight--);
    });
    ws.on('close', () => {
      sockets.delete(ws);
      controller.abort();
      hub.dropConnection(out);
    });
    ws.on('error', () => ws.terminate());
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, bind, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const hostForUrl = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${hostForUrl}:${address.port}`;
  return {
    url,
    rpcUrl: `ws://${hostForUrl}:${address.port}/rpc`,
    port: address.port,
    hub,
    get connections() {
      return sockets.size;
    },
    async close() {
      hub.close();
      for (const ws of sockets) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
