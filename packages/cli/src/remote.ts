import { defined } from '@strand/session';
import { WebSocket } from 'ws';
import { StrandConnection } from '@strand/client';
import { resolveHoldingHost } from './holding-host.js';
import { probeHost } from './host-probe.js';
import { toRpcUrl } from './host-url.js';
import { RemoteHostError } from './remote-error.js';
import { cliLogger } from './stderr-logger.js';

export interface RemoteOptions {
  readonly data: string;
  /** A PostgreSQL store (`postgres://…`) the embedded host serves instead of the data folder's files. */
  readonly store?: string;
  readonly url?: string;
  readonly token?: string;
}

/**
 * Runs `fn` with a client connection: to a running host (`--url`, or the host holding the data
 * folder's lock), or to an embedded host over the data folder, in process (no port). Either
 * way the CLI reads through the same API as every other client — it owns no read logic of its own.
 */
export async function withConnection<T>(
  options: RemoteOptions,
  fn: (connection: StrandConnection) => Promise<T>,
): Promise<T> {
  const target = await readTarget(options);
  if (target.kind === 'host') return withHost(target.rpcUrl, target.token, fn);
  // Loaded only here: a read through a running host needs none of the embedded stack.
  const [{ openStrandRuntime }, { inProcessHost }] = await Promise.all([
    import('@strand/runtime'),
    import('@strand/host'),
  ]);
  const runtime = await openStrandRuntime({
    dataDir: options.data,
    logger: cliLogger(),
    ...defined({ store: options.store }),
    // Another process may be writing the folder (an import holding its lock): never delete its temp files.
    sweepTemp: false,
  });
  // No port: the read goes through the host's own RPC, in memory (the same checks and handlers).
  const host = inProcessHost({ services: runtime.services });
  const connection = new StrandConnection({ url: 'strand:in-process', WebSocket: host.WebSocket });
  try {
    // A one-shot read answers from a complete index: the search sync and the list hints folded at open.
    await runtime.searchReady;
    await runtime.listReady;
    return await fn(connection);
  } finally {
    connection.close();
    await host.close();
    await runtime.close();
  }
}

/**
 * Where a read goes: `--url` when given (checked with one upgrade first, so a dead address or a
 * refused token fails at once instead of reconnecting forever); else the host that holds the
 * data folder, because it runs the live sessions (the disk lags its turns, and only it delivers
 * live follow events); else the data folder itself, also while a writer that is no host (an
 * import) holds it.
 */
export async function readTarget(
  options: RemoteOptions,
): Promise<{ kind: 'host'; rpcUrl: string; token?: string } | { kind: 'folder' }> {
  if (options.url !== undefined) {
    const rpcUrl = toRpcUrl(options.url);
    await checkHost(options.url, rpcUrl, options.token);
    return { kind: 'host', rpcUrl, ...tokenOf(options.token) };
  }
  if (options.store !== undefined) return { kind: 'folder' };
  const host = await resolveHoldingHost(options.data, options.token);
  return host === undefined
    ? { kind: 'folder' }
    : { kind: 'host', rpcUrl: host.rpcUrl, ...tokenOf(host.token) };
}

async function checkHost(url: string, rpcUrl: string, token: string | undefined): Promise<void> {
  const answer = await probeHost(rpcUrl, token);
  if (answer.kind === 'open') return;
  if (answer.kind === 'refused' && answer.status === 401)
    throw new RemoteHostError(
      'CLI_HOST_UNAUTHORIZED',
      `the host at ${url} refused the token${token === undefined ? ' (it requires one: pass --token)' : ''}`,
      url,
    );
  throw new RemoteHostError(
    'CLI_HOST_UNREACHABLE',
    `no Strand host answers at ${url} (${answer.kind === 'refused' ? `HTTP ${answer.status}` : answer.reason})`,
    url,
  );
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
  return defined({ token });
}
