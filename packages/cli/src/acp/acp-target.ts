import { defined } from '@strand/session';
import path from 'node:path';
import { WebSocket } from 'ws';
import { StrandConnection } from '@strand/client';
import { holdDataFolder } from '../data-lock/hold-for-command.js';
import { readTarget, type RemoteOptions } from '../remote.js';

export interface AcpTargetOptions extends RemoteOptions {
  /** An OpenAI-compatible models file for the host this command runs itself (see `serve --models`). */
  readonly models?: string;
}

/** Where the editor's sessions live while `strand acp` runs, and how to let go of it. */
export interface AcpTarget {
  readonly connection: StrandConnection;
  /** One line for stderr: which host or folder this is. */
  readonly description: string;
  close(): Promise<void>;
}

/**
 * The host the agent works through. `--url`, or the host holding the data folder's lock: its
 * agents run the editor's turns, so the web UI and every follower see them live. Otherwise this
 * process becomes the folder's one writer — it takes the lock for as long as it runs, opens the
 * runtime and serves it on a private loopback port, and announces that host in the lock record,
 * so `strand list`/`show` read the live sessions through it as they would through `strand serve`.
 * With `--store` it serves the PostgreSQL store instead, taking no folder lock (the store's
 * per-session leases keep several hosts apart). Either way the adapter speaks only the host's wire API.
 */
export async function openAcpTarget(options: AcpTargetOptions): Promise<AcpTarget> {
  const target = await readTarget(options);
  if (target.kind === 'host') {
    if (options.models !== undefined)
      console.error('strand: --models is ignored: the running host has its own models');
    const connection = new StrandConnection({
      url: target.rpcUrl,
      WebSocket,
      ...defined({ token: target.token }),
    });
    return {
      connection,
      description: `through the host at ${target.rpcUrl}`,
      close: () => Promise.resolve(connection.close()),
    };
  }
  // Like `strand serve`, a writer creates a missing folder: an editor's first session starts one.
  // Loaded only here: working through a running host needs none of the embedded stack.
  const [{ openStrandRuntime, loadModelsFile }, { startHost }] = await Promise.all([
    import('@strand/runtime'),
    import('@strand/host'),
  ]);
  // Read before the lock is taken: a bad file fails the command with nothing held.
  const modelsFile = options.models === undefined ? undefined : await loadModelsFile(options.models);
  // PostgreSQL has per-session leases for several hosts; the folder lock is for the files store.
  const lock = options.store === undefined ? await holdDataFolder(options.data, 'acp') : undefined;
  try {
    const runtime = await openStrandRuntime({
      dataDir: options.data,
      ...defined({ store: options.store }),
      ...(modelsFile === undefined ? {} : { models: modelsFile.models }),
      ...(modelsFile?.default === undefined ? {} : { defaultModel: modelsFile.default }),
    });
    const host = await startHost({ services: runtime.services, port: 0 });
    await lock?.announceHost({ url: host.url, rpcUrl: host.rpcUrl });
    const connection = new StrandConnection({ url: host.rpcUrl, WebSocket });
    return {
      connection,
      // A store URL may carry a password: never echo it.
      description:
        lock === undefined
          ? 'over the PostgreSQL store'
          : `holding ${path.resolve(options.data)} (its lock is held until this agent exits)`,
      close: async () => {
        connection.close();
        await lock?.withdrawHost();
        await host.close();
        await runtime.close();
        await lock?.release();
      },
    };
  } catch (error) {
    await lock?.release();
    throw error;
  }
}
