import { WebSocket } from 'ws';
import { StrandConnection } from '@strand/client';
import { openStrandRuntime, startHost } from '@strand/host';
import { resolveHoldingHost } from './holding-host.js';

export interface RemoteOptions {
  readonly data: string;
  /** A PostgreSQL store (`postgres://…`) the embedded host serves instead of the data folder's files. */
  readonly store?: string;
  readonly url?: string;
  readonly token?: string;
}

/**
 * Runs `fn` with a client connection: to a running host (`--url`, or the host holding the data
 * folder's lock), or to an embedded host over the data folder on a private loopback port. Either
 * way the CLI reads through the same API as every other client — it owns no read logic of its own.
 */
export async function withConnection<T>(
  options: RemoteOptions,
  fn: (connection: StrandConnection) => Promise<T>,
): Promise<T> {
  const target = await readTarget(options);
  if (target.kind === 'host') return withHost(target.rpcUrl, target.token, fn);
  const runtime = await openStrandRuntime({
    dataDir: options.data,
    ...(options.store === undefined ? {} : { store: options.store }),
    // Another process may be writing the folder (an import holding its lock): never delete its temp files.
    sweepTemp: false,
  });
  const host = await startHost({ services: runtime.services, port: 0 });
  const connection = new StrandConnection({
    url: host.rpcUrl,
    WebSocket: WebSocket,
  });
  try {
    await runtime.searchReady;
    return await fn(connection);
  } finally {
    connection.close();
    await host.close();
    await runtime.close();
  }
}

/**
 * Where a read goes: `--url` when given; else the host that holds the data folder, because it
 * runs the live sessions (the disk lags its turns, and only it delivers live follow events);
 * else the data folder itself, also while a writer that is no host (an import) holds it.
 */
export async function readTarget(
  options: RemoteOptions,
): Promise<{ kind: 'host'; rpcUrl: string; token?: string } | { kind: 'folder' }> {
  if (options.url !== undefined)
    return { kind: 'host', rpcUrl: toRpcUrl(options.url), ...tokenOf(options.token) };
  if (options.store !== undefined) return { kind: 'folder' };
  const host = await resolveHoldingHost(options.data, options.token);
  return host === undefined
    ? { kind: 'folder' }
    : { kind: 'host', rpcUrl: host.rpcUrl, ...tokenOf(host.token) };
}

/** Runs `fn` with a connection to a running host. */
export async function withHost<T>(
  rpcUrl: string,
  token: string | undefined,
  fn: (connection: StrandConnection) => Promise<T>,
): Promise<T> {
  const connection = new StrandConnection({ url: rpcUrl, WebSocket: WebSocket, ...tokenOf(token) });
  try {
    return await fn(connection);
  } finally {
    connection.close();
  }
}

function tokenOf(token: string | undefined): { token?: string } {
  return token === undefined ? {} : { token };
}

function toRpcUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.protocol === 'http:') parsed.protocol = 'ws:';
  if (parsed.protocol === 'https:') parsed.protocol = 'wss:';
  if (parsed.pathname === '/' || parsed.pathname === '') parsed.pathname = '/rpc';
  return parsed.toString();
}
