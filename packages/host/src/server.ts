import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import { HOST_ERRORS } from '@strand/session/errors';
import type { HostErrorCode } from './errors.js';
import { MIN_TOKEN_LENGTH, isLoopbackHost, shareCookieName, tokenCookieName } from './auth.js';
import { ConnectionGate } from './edge/connection-gate.js';
import { accessPolicy, parseOrigin } from './edge/origin-check.js';
import { httpRoutes } from './edge/http-routes.js';
import { InFlightByAddress, mcpRoute } from './edge/mcp-route.js';
import type { RefusalListener } from './edge/refusal-log.js';
import { TokenGate } from './edge/token-gate.js';
import { upgradeHandler } from './edge/upgrade.js';
import { FollowHub, type DraftPacing } from './follow/follow-hub.js';
import type { Outbound } from './follow/outbound.js';
import { ListChangeFeed } from './list/list-changes.js';
import { serveConnection } from './rpc/connection.js';
import { localCaller } from './rpc/local-caller.js';
import { headerReader } from './share/header-of.js';
import { FULL_ACCESS, type ConnectionAccess } from './share/share-gate.js';
import { ShareService } from './share/share-service.js';
import { NODE_TIMERS, type ShareTimers } from './share/expiry-timer.js';
import type { ShareGrant } from './share/grant-store.js';
import {
  DEFAULT_LIMITS,
  frameCeiling,
  servedServices,
  type HostLimits,
  type HostServices,
} from './services.js';

export interface HostOptions {
  readonly services: HostServices;
  /** Interface to bind (default 127.0.0.1). Anything but loopback requires `token`. */
  readonly host?: string;
  /** Port (default 0: any free port). */
  readonly port?: number;
  /** Required on every connection when set; mandatory off loopback. */
  readonly token?: string;
  /**
   * Require the token on loopback too (off loopback it always is): for a machine shared with
   * other users, and to exercise the off-loopback flow without leaving loopback.
   */
  readonly requireToken?: boolean;
  /** Origins (`http(s)://host[:port]`) besides the host's own whose pages may open `/rpc`. */
  readonly allowOrigins?: readonly string[];
  /** Told of every upgrade or page the access checks refused. */
  readonly onRefused?: RefusalListener;
  readonly limits?: Partial<HostLimits>;
  /** A built web UI folder to serve over HTTP. */
  readonly webRoot?: string;
  /** The address links point to (`strand serve --public-url`), e.g. behind a proxy; default: the listening address. */
  readonly publicUrl?: string;
  /** Milliseconds since the epoch, for share grants' creation and expiry (default `Date.now`); tests inject one. */
  readonly now?: () => number;
  /** The timers that close a share connection at its grant's expiry (default Node's); tests pass a manual clock's. */
  readonly shareTimers?: ShareTimers;
  /** How `follow.draft` is paced (default: one per `DRAFT_INTERVAL_MS`, real clock); tests inject a clock. */
  readonly draftPacing?: DraftPacing;
}

export interface RunningHost {
  readonly url: string;
  readonly rpcUrl: string;
  readonly port: number;
  readonly hub: FollowHub;
  /** The `list.changed` subscriptions. */
  readonly lists: ListChangeFeed;
  /** Open WebSocket connections. */
  readonly connections: number;
  close(): Promise<void>;
}

/** A host option that cannot work: `HOST_TOKEN_REQUIRED` (no token where one is required) or `HOST_ORIGIN_INVALID`. */
export class HostConfigError extends HOST_ERRORS.errorClass<
  Extract<HostErrorCode, 'HOST_TOKEN_REQUIRED' | 'HOST_ORIGIN_INVALID'>
>('HostConfigError') {}

/** Close code of a share connection whose grant was revoked (reason `HOST_SHARE_REVOKED`). */
export const SHARE_REVOKED_CLOSE_CODE = 4403;
/** Close code of a share connection whose grant expired while it was open (reason `HOST_SHARE_EXPIRED`). */
export const SHARE_EXPIRED_CLOSE_CODE = 4401;

/** Close code a connection gets when a frame exceeds the hard ceiling (RFC 6455 "message too big"). */
export const FRAME_CEILING_CLOSE_CODE = 1009;

/**
 * The Strand host: JSON-RPC 2.0 over one WebSocket per client at `/rpc`, `/health`, `/auth` and
 * the web UI. One bad request gets one typed error; the connection and every other client go on.
 */
export async function startHost(options: HostOptions): Promise<RunningHost> {
  const bind = options.host ?? '127.0.0.1';
  const tokenRequired = options.requireToken === true || !isLoopbackHost(bind);
  if (tokenRequired && (options.token === undefined || options.token.length < MIN_TOKEN_LENGTH)) {
    throw new HostConfigError(
      'HOST_TOKEN_REQUIRED',
      `${isLoopbackHost(bind) ? 'requireToken' : `binding ${bind} (not loopback)`} requires a token of at least ${MIN_TOKEN_LENGTH} characters`,
    );
  }
  for (const origin of options.allowOrigins ?? [])
    if (parseOrigin(origin) === undefined)
      throw new HostConfigError(
        'HOST_ORIGIN_INVALID',
        `allowed origin ${JSON.stringify(origin)} is not an origin (http(s)://host[:port], no path)`,
      );
  const limits: HostLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const services = servedServices(options.services);
  const hub = new FollowHub(services, limits.maxQueuedBytes, options.draftPacing);
  const lists = new ListChangeFeed(services);
  const webRoot = options.webRoot === undefined ? undefined : path.resolve(options.webRoot);
  const sockets = new Set<WebSocket>();
  // The frame limit is checked per message so an oversized request gets a typed error; `maxPayload`
  // is the hard ceiling past which ws stops reading and closes with 1009.
  const wss = new WebSocketServer({ noServer: true, maxPayload: frameCeiling(limits) });
  const server: Server = createServer();
  // Every TCP connection is counted (and refused past a cap) before a byte of it is read.
  const connectionGate = new ConnectionGate(limits);
  server.on('connection', connectionGate.admit);
  server.on('request', (request) => connectionGate.settled(request.socket));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, bind, () => resolve());
  });
  const address = server.address() as AddressInfo;
  // The checks need the port, known only now; no request is read before this tick ends.
  const policy = accessPolicy(bind, address.port, options.allowOrigins ?? []);
  const hostForUrl = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${hostForUrl}:${address.port}`;
  const now = options.now ?? Date.now;
  const headerOf = headerReader(services);
  const shares = new ShareService({
    store: services.shares,
    tokenRequired,
    baseUrl: (options.publicUrl ?? url).replace(/\/+$/, ''),
    now,
    timers: options.shareTimers ?? NODE_TIMERS,
    logger: services.logger,
    headerOf,
  });
  const gate = new TokenGate({
    token: options.token,
    maxFailures: limits.maxAuthFailures,
    windowSeconds: limits.authFailureWindowSeconds,
    cookieName: tokenCookieName(address.port),
    shareCookieName: shareCookieName(address.port),
    shares,
  });
  const mcp = services.mcp;
  const mcpInFlight = new InFlightByAddress(limits.maxInFlight);
  server.on(
    'request',
    httpRoutes({
      policy,
      gate,
      webRoot,
      connections: () => sockets.size,
      onRefused: options.onRefused,
      mcp:
        mcp === undefined
          ? undefined
          : (request, response) =>
              mcpRoute(
                {
                  policy,
                  gate,
                  onRefused: options.onRefused,
                  port: mcp,
                  address: url,
                  inFlight: mcpInFlight,
                  caller: (signal, grant) =>
                    localCaller(
                      { services, hub, lists, limits, shares, now },
                      signal,
                      grant === undefined ? FULL_ACCESS : { kind: 'share', grant, headerOf },
                    ),
                },
                request,
                response,
              ),
    }),
  );
  server.on(
    'upgrade',
    upgradeHandler({
      policy,
      gate,
      onRefused: options.onRefused,
      accept: (request, socket, head, grant) =>
        wss.handleUpgrade(request, socket, head, (ws) => {
          connectionGate.settled(request.socket);
          wss.emit('connection', ws, request, grant);
        }),
    }),
  );

  wss.on('connection', (ws: WebSocket, request: IncomingMessage, grant: ShareGrant | undefined) => {
    sockets.add(ws);
    const access: ConnectionAccess = grant === undefined ? FULL_ACCESS : { kind: 'share', grant, headerOf };
    // A revoke closes the grant's connections at once, its expiry when it comes (the close tells
    // the page why).
    const untrack =
      grant === undefined
        ? undefined
        : shares.track(grant, request.socket.remoteAddress, (reason) =>
            ws.close(
              reason === 'HOST_SHARE_REVOKED' ? SHARE_REVOKED_CLOSE_CODE : SHARE_EXPIRED_CLOSE_CODE,
              reason,
            ),
          );
    const out: Outbound = {
      get bufferedAmount() {
        return ws.bufferedAmount;
      },
      get open() {
        return ws.readyState === ws.OPEN;
      },
      send: (text, done) => ws.send(text, done),
    };
    const connection = serveConnection({ services, hub, lists, limits, shares, now }, out, access);
    ws.on('message', (data, isBinary) =>
      connection.receive(
        Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data),
        isBinary,
      ),
    );
    ws.on('close', () => {
      untrack?.();
      sockets.delete(ws);
      connection.closed();
    });
    ws.on('error', () => ws.terminate());
  });

  return {
    url,
    rpcUrl: `ws://${hostForUrl}:${address.port}/rpc`,
    port: address.port,
    hub,
    lists,
    get connections() {
      return sockets.size;
    },
    async close() {
      shares.close();
      hub.close();
      lists.close();
      connectionGate.close();
      for (const ws of sockets) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
