import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command, Option } from 'commander';
import { isLoopbackHost, openStrandRuntime, startHost, type StrandRuntime } from '@strand/host';
import { SessionId } from '@strand/session';
import { DEMO_LIVE_SESSION } from './demo-corpus.js';
import { ensureDemoCorpus } from './demo.js';
import { holdDataFolder } from '../data-lock/hold-for-command.js';
import { DEFAULT_DATA_DIR } from '../defaults.js';
import { storeOption } from '../store-option.js';
import type { DataFolderLock } from '../data-lock/data-folder-lock.js';

interface ServeOptions {
  data: string;
  port: string;
  host: string;
  token?: string;
  backend?: 'jsonl' | 'sqlite';
  store?: string;
  coldReads?: string;
  model?: string;
  baseUrl?: string;
  apiKeyEnv?: string;
  demo?: boolean;
  json?: boolean;
}

const WEB_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../web/dist');

/** `strand serve`: the host with the web UI over a data folder. */
export function serveCommand(): Command {
  return new Command('serve')
    .description('run the Strand host (JSON-RPC over WebSocket at /rpc) and the web UI')
    .option('--data <dir>', 'data folder', DEFAULT_DATA_DIR)
    .option('--port <port>', 'port (0: any free port)', '4400')
    .option('--host <host>', 'interface to bind; anything but loopback requires a token', '127.0.0.1')
    .option('--token <token>', 'token clients must present (generated and printed when binding off loopback)')
    .addOption(
      // No commander default: the runtime defaults to jsonl, and refuses --backend beside --store.
      new Option('--backend <backend>', 'files store format (default jsonl)').choices(['jsonl', 'sqlite']),
    )
    .addOption(storeOption())
    .option(
      '--cold-reads <n>',
      'cold reads one subagent listing runs at once (1–64; default 4 on files, 8 on PostgreSQL)',
    )
    .option(
      '--model <name>',
      'model name of an OpenAI-compatible endpoint (default: the built-in scripted model)',
    )
    .option('--base-url <url>', 'base URL of the OpenAI-compatible endpoint')
    .option('--api-key-env <var>', 'environment variable holding the API key', 'OPENAI_API_KEY')
    .option(
      '--demo',
      'write the demo corpus first when the data folder is empty, and keep demo-live producing events',
    )
    .option('--json', 'print the URL as JSON')
    .action(async (options: ServeOptions) => {
      const port = Number(options.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535)
        throw new Error(`--port must be 0–65535, got ${options.port}`);
      const token =
        options.token ?? (isLoopbackHost(options.host) ? undefined : randomBytes(24).toString('base64url'));
      if (options.demo === true && options.store !== undefined)
        throw new Error('--demo writes its corpus to the data folder; it cannot be combined with --store');
      // PostgreSQL has per-session leases for several hosts; the folder lock is for the files store.
      const lock = options.store === undefined ? await holdDataFolder(options.data, 'serve') : undefined;
      try {
        await serve(options, port, token, lock);
      } finally {
        await lock?.release();
      }
    });
}

async function serve(
  options: ServeOptions,
  port: number,
  token: string | undefined,
  lock: DataFolderLock | undefined,
): Promise<void> {
  if (options.demo === true) await ensureDemoCorpus(options.data, options.json !== true);
  const runtime = await openStrandRuntime({
    dataDir: options.data,
    ...(options.backend === undefined ? {} : { backend: options.backend }),
    ...(options.store === undefined ? {} : { store: options.store }),
    ...(options.coldReads === undefined ? {} : { coldReadConcurrency: Number(options.coldReads) }),
    ...(options.baseUrl === undefined
      ? {}
      : {
          model: {
            baseUrl: options.baseUrl,
            ...(options.model === undefined ? {} : { model: options.model }),
            apiKeyEnv: options.apiKeyEnv ?? 'OPENAI_API_KEY',
          },
        }),
  });
  const host = await startHost({
    services: runtime.services,
    host: options.host,
    port,
    ...(token === undefined ? {} : { token }),
    ...(existsSync(WEB_ROOT) ? { webRoot: WEB_ROOT } : {}),
  });
  await lock?.announceHost({ url: host.url, rpcUrl: host.rpcUrl, ...(token === undefined ? {} : { token }) });
  const stopTicker = options.demo === true ? startDemoTicker(runtime) : () => undefined;
  const url = token === undefined ? host.url : `${host.url}/?token=${encodeURIComponent(token)}`;
  // Listen before announcing the URLs: whoever reads them may signal at once, and a signal
  // with no listener kills the process without a clean close.
  const stopped = new Promise<void>((resolve) => {
    const stop = (): void => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  if (options.json === true)
    console.log(
      JSON.stringify({
        url,
        rpcUrl: host.rpcUrl,
        dataDir: options.data,
        ...(options.store === undefined ? {} : { store: redactedStore(options.store) }),
        ...(token === undefined ? {} : { token }),
      }),
    );
  else {
    console.log(
      `Strand is serving ${options.store === undefined ? path.resolve(options.data) : redactedStore(options.store)}`,
    );
    console.log(`  web UI:  ${url}`);
    console.log(`  API:     ${host.rpcUrl}${token === undefined ? '' : '  (token required)'}`);
    if (!existsSync(WEB_ROOT)) console.log('  (the web UI is not built: npm run build:web)');
  }
  await stopped;
  await lock?.withdrawHost();
  stopTicker();
  await host.close();
  await runtime.close();
}

/** A store URL without its password, for printing. */
function redactedStore(store: string): string {
  try {
    const url = new URL(store);
    if (url.password !== '') url.password = '***';
    return url.toString();
  } catch {
    return store;
  }
}

/**
 * Keeps `demo-live` live and producing events: it holds a lease on the session's agent (so it
 * stays attached between turns) and prompts it every few seconds.
 */
function startDemoTicker(runtime: StrandRuntime): () => void {
  let stopped = false;
  let release: (() => void) | undefined;
  let tick = 0;
  const loop = async (): Promise<void> => {
    try {
      const lease = await runtime.agents.activate(SessionId(DEMO_LIVE_SESSION));
      release = () => lease.release();
    } catch (error) {
      console.error('strand demo: the live session could not be activated', error);
      return;
    }
    while (!stopped) {
      try {
        const { outcome } = await runtime.agents.prompt(
          SessionId(DEMO_LIVE_SESSION),
          `Tick ${++tick}: report what changed since the last tick.`,
        );
        await outcome;
      } catch (error) {
        if (!stopped) console.error('strand demo: the live session could not run a turn', error);
      }
      await new Promise((resolve) => setTimeout(resolve, 3000));
    }
  };
  void loop();
  return () => {
    stopped = true;
    release?.();
  };
}
