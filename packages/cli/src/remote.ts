import { WebSocket } from 'ws';
import { StrandConnection } from '@strand/client';
import { openStrandRuntime, startHost } from '@strand/host';

export interface RemoteOptions {
  readonly data: string;
  /** A PostgreSQL store (`postgres://…`) the embedded host serves instead of the data folder's files. */
  readonly store?: string;
  readonly url?: string;
  readonly token?: string;
}

/**
 * Runs `fn` with a client connection: to a running host (`--url`), or to an embedded host over
 * the data folder on a private loopback port. Either way the CLI reads through the same API as
 * every other client — it owns no read logic of its own.
 */
export async function withConnection<T>(
  options: RemoteOptions,
  fn: (connection: StrandConnection) => Promise<T>,
): Promise<T> {
  if (options.url !== undefined) {
    const connection = new StrandConnection({
      url: toRpcUrl(options.url),
      WebSocket: WebSocket,
      ...(options.token === undefined ? {} : { token: options.token }),
    });
    try {
      return await fn(connection);
    } finally {
      connection.close();
    }
  }
  const runtime = await openStrandRuntime({
    dataDir: options.data,
    ...(options.store === undefined ? {} : { store: options.store }),
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

function toRpcUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.protocol === 'http:') parsed.protocol = 'ws:';
  if (parsed.protocol === 'https:') parsed.protocol = 'wss:';
  if (parsed.pathname === '/' || parsed.pathname === '') parsed.pathname = '/rpc';
  return parsed.toString();
}
