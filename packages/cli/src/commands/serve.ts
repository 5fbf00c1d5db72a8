import { defined } from '@strand/session';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Command, Option } from 'commander';
import {
  MIN_TOKEN_LENGTH,
  bundledPrices,
  isLoopbackHost,
  startHost,
  withOverrides,
  type ModelRates,
} from '@strand/host';
import { mcpHttpHandler } from '@strand/mcp';
import { MAX_SUBAGENT_COLD_READ_CONCURRENCY } from '@strand/subagent';
import { readPricingFile } from '../pricing-file.js';
import {
  IMPORT_HARNESSES,
  importTranscripts,
  isImportError,
  parseWatchSpec,
  startLiveIngest,
  type WatchSpec,
} from '@strand/import';
import { loadModelsFile, openStrandRuntime, type StrandRuntime } from '@strand/runtime';
import { parseHostUrl } from '../host-url.js';
import { ensureDemoCorpus } from './demo.js';
import { startDemoTicker } from './demo-ticker.js';
import { holdDataFolder } from '../data-lock/hold-for-command.js';
import type { DataFolderLock } from '../data-lock/data-folder-lock.js';
import { findDataFolderHolder } from '../data-lock/folder-holder.js';
import { DEFAULT_DATA_DIR } from '../defaults.js';
import { problemLine } from '../problem-line.js';
import { integerOption } from '../integer-option.js';
import { assertPortFree, portInUseOr } from '../serve-port.js';
import { storeOption } from '../store-option.js';
import { failUsage } from '../usage-error.js';
import { webRoot } from '../web-root.js';
import { cliLogger } from '../stderr-logger.js';
import { warmDemoCache } from './demo-warm.js';
import { usageTable } from './usage-command.js';
import { VERSION } from '../version.js';
import { fillCacheRows } from './catch-up-rows.js';
import { changedSessions } from './import.js';

interface ServeOptions {
  data: string;
  port: number;
  host: string;
  token?: string;
  requireToken?: boolean;
  allowOrigin: string[];
  publicUrl?: string;
  backend?: 'jsonl' | 'sqlite';
  store?: string;
  coldReads?: number;
  model?: string;
  baseUrl?: string;
  apiKeyEnv?: string;
  models?: string;
  demo?: boolean;
  json?: boolean;
  watch: string[];
  pricing?: string;
}

const WEB_ROOT = webRoot();
/** `--demo`: the scripted model's pause before each streamed word (about 25 words a second). */
const DEMO_CHUNK_DELAY_MS = 40;

/** `strand serve`: the host with the web UI over a data folder. */
export function serveCommand(): Command {
  return new Command('serve')
    .description('run the Strand host (JSON-RPC over WebSocket at /rpc) and the web UI')
    .option('--data <dir>', 'data folder', DEFAULT_DATA_DIR)
    .addOption(integerOption('--port <port>', 'port (0: any free port)', { min: 0, max: 65_535 }, 4400))
    .option('--host <host>', 'interface to bind; anything but loopback requires a token', '127.0.0.1')
    .option('--token <token>', 'token clients must present (generated and printed when binding off loopback)')
    .option('--require-token', 'require the token on loopback too (a machine shared with other users)')
    .addOption(
      new Option(
        '--public-url <url>',
        'the address share links point to (behind a proxy), e.g. https://strand.example',
      ).argParser(parseHostUrl),
    )
    .option(
      '--allow-origin <origin>',
      'another web origin (http(s)://host[:port]) whose pages may connect; repeatable',
      (value: string, previous: string[]) => [...previous, value],
      [] as string[],
    )
    .addOption(
      // No commander default: the runtime defaults to jsonl, and refuses --backend beside --store.
      new Option('--backend <backend>', 'files store format (default jsonl)').choices(['jsonl', 'sqlite']),
    )
    .addOption(storeOption())
    .addOption(
      integerOption(
        '--cold-reads <n>',
        'cold reads one subagent listing runs at once (default 4 on files, 8 on PostgreSQL)',
        { min: 1, max: MAX_SUBAGENT_COLD_READ_CONCURRENCY },
      ),
    )
    .option(
      '--model <name>',
      'model name of an OpenAI-compatible endpoint (default: the built-in scripted model)',
    )
    .option('--base-url <url>', 'base URL of the OpenAI-compatible endpoint')
    .option('--api-key-env <var>', 'environment variable holding the API key', 'OPENAI_API_KEY')
    .option(
      '--models <file>',
      'JSON file of OpenAI-compatible endpoints to offer beside the scripted model (see the README)',
    )
    .option(
      '--demo',
      'write the demo corpus first when the data folder is empty, and keep demo-live producing events',
    )
    .option(
      '--watch <harness[:dir]>',
      `follow the transcripts a harness (${IMPORT_HARNESSES.join(', ')}) writes under dir (default: its usual home; aider and crush have none, name the folder) as they are written; repeatable`,
      (value: string, previous: string[]) => [...previous, value],
      [] as string[],
    )
    .option(
      '--pricing <file>',
      'prices (USD per million tokens) overriding the bundled table for the models it names (usage.summary)',
    )
    .option('--json', 'print the URL as JSON')
    .action(async (options: ServeOptions) => {
      const needsToken = options.requireToken === true || !isLoopbackHost(options.host);
      if (needsToken && options.token !== undefined && options.token.length < MIN_TOKEN_LENGTH)
        failUsage(
          `--token must be at least ${MIN_TOKEN_LENGTH} characters with ${options.requireToken === true ? '--require-token' : `--host ${options.host} (not loopback)`}`,
          'strand.serve.short-token',
        );
      const token = options.token ?? (needsToken ? randomBytes(24).toString('base64url') : undefined);
      if (options.demo === true && options.store !== undefined)
        throw new Error('--demo writes its corpus to the data folder; it cannot be combined with --store');
      // Parsed before anything is written: a bad --watch fails the command with nothing changed.
      const watches = options.watch.map((value) => watchSpecOrUsageError(value));
      if (watches.length > 0 && (options.store !== undefined || options.backend === 'sqlite'))
        throw new Error(
          '--watch imports into the files store (jsonl); it cannot be combined with --store or --backend sqlite',
        );
      // Read before anything is written: a bad file fails the command with nothing changed.
      const modelsFile = options.models === undefined ? undefined : await loadModelsFile(options.models);
      const pricing = options.pricing === undefined ? undefined : await readPricingFile(options.pricing);
      // Asked before the lock: a busy port must not leave a data folder (or a lock) behind. A
      // folder another process holds is refused by the lock instead, which names that holder
      // (most often the `strand serve` on this very port).
      if (options.store !== undefined || (await findDataFolderHolder(options.data)).kind === 'free')
        await assertPortFree(options.host, options.port);
      // PostgreSQL has per-session leases for several hosts; the folder lock is for the files store.
      const lock = options.store === undefined ? await holdDataFolder(options.data, 'serve') : undefined;
      try {
        await serve(options, token, modelsFile, lock, watches, pricing);
      } finally {
        await lock?.release();
      }
    });
}

async function serve(
  options: ServeOptions,
  token: string | undefined,
  modelsFile: Awaited<ReturnType<typeof loadModelsFile>> | undefined,
  lock: DataFolderLock | undefined,
  watches: readonly WatchSpec[],
  pricing: Readonly<Record<string, ModelRates>> | undefined,
): Promise<void> {
  if (options.demo === true) await ensureDemoCorpus(options.data, options.json !== true);
  const logger = cliLogger();
  const open = (): Promise<StrandRuntime> =>
    openStrandRuntime({
      dataDir: options.data,
      logger,
      ...defined({ backend: options.backend, store: options.store, coldReadConcurrency: options.coldReads }),
      // --model alone is refused by the runtime (a model name needs an endpoint), not ignored.
      ...(options.baseUrl === undefined && options.model === undefined
        ? {}
        : {
            model: {
              ...defined({ baseUrl: options.baseUrl, model: options.model }),
              apiKeyEnv: options.apiKeyEnv ?? 'OPENAI_API_KEY',
            },
          }),
      ...(modelsFile === undefined ? {} : { models: modelsFile.models }),
      ...(modelsFile?.default === undefined ? {} : { defaultModel: modelsFile.default }),
      // The demo shows replies being written: the scripted model streams a word at a time.
      ...(options.demo === true ? { scriptedChunkDelayMs: DEMO_CHUNK_DELAY_MS } : {}),
    });
  // With --watch, live ingest watches the folders first, then the catch-up runs alone while
  // nothing else has the data folder open: exactly a one-shot import, resumed from the import
  // ledger. Only then does the runtime open the folder (while live ingest compares the files the
  // import stamped with the ledger); files changed meanwhile are read once it is open.
  let opened: StrandRuntime | undefined;
  /** Sessions the catch-up imported or updated: their cache rows are filled once the host serves. */
  const caughtUp: string[] = [];
  const ingest =
    watches.length === 0
      ? undefined
      : startLiveIngest({
          watches,
          catchUp: async () => {
            for (const spec of watches) caughtUp.push(...(await catchUp(spec, options.data)));
          },
          // Its persistence is the stack's: what it creates or deletes is listed (or not) at once.
          target: async () => (opened = await open()).services,
          dataDir: options.data,
          onReport: (r) =>
            console.error(
              `strand: watch: ${r.file}${r.line === null ? '' : `:${r.line}`}: ${r.kind}: ${r.reason}`,
            ),
        });
  try {
    await ingest?.ready;
  } catch (error) {
    await ingest?.close();
    await opened?.close();
    throw error;
  }
  const runtime = opened ?? (await open());
  if (options.demo === true) await warmDemoCache(runtime);
  // A host that cannot start (port taken) must not leave the watchers holding the process open.
  const host = await startHost({
    services: {
      ...runtime.services,
      ...(pricing === undefined ? {} : { prices: withOverrides(bundledPrices(), pricing, options.pricing!) }),
      // `/mcp`: the MCP tools, reading through this host's own methods.
      mcp: mcpHttpHandler({ version: VERSION, usageTable }),
    },
    host: options.host,
    port: options.port,
    ...defined({ token }),
    ...(options.requireToken === true ? { requireToken: true } : {}),
    allowOrigins: options.allowOrigin,
    ...defined({ publicUrl: options.publicUrl }),
    // The operator's one view of pages and clients the access checks turned away.
    onRefused: (refusal) =>
      console.error(
        `strand: host refused ${refusal.upgrade ? '/rpc upgrade' : 'page or /mcp request'} from ${refusal.address ?? '?'} (${refusal.status} ${refusal.code}): ${refusal.reason}`,
      ),
    ...(existsSync(WEB_ROOT) ? { webRoot: WEB_ROOT } : {}),
  }).catch(async (error: unknown) => {
    await ingest?.close();
    throw portInUseOr(options.host, options.port, error);
  });
  await lock?.announceHost({ url: host.url, rpcUrl: host.rpcUrl, ...defined({ token }) });
  const stopTicker = options.demo === true ? startDemoTicker(runtime, logger) : () => undefined;
  const rows =
    caughtUp.length === 0
      ? undefined
      : fillCacheRows(runtime.services.query, caughtUp, (id, error) =>
          console.error(
            problemLine(`watch: projection cache ${id} (folded when first viewed instead)`, error),
          ),
        );
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
        ...defined({ token }),
      }),
    );
  else {
    console.log(
      `Strand is serving ${options.store === undefined ? path.resolve(options.data) : redactedStore(options.store)}`,
    );
    console.log(`  web UI:  ${url}`);
    console.log(`  API:     ${host.rpcUrl}${token === undefined ? '' : '  (token required)'}`);
    console.log(`  MCP:     ${host.url}/mcp${token === undefined ? '' : '  (token required)'}`);
    if (!existsSync(WEB_ROOT)) console.log('  (the web UI is not built: npm run build:web)');
  }
  await stopped;
  await lock?.withdrawHost();
  await ingest?.close();
  await rows?.stop();
  stopTicker();
  await host.close();
  await runtime.close();
}

/**
 * The one-shot import of a watched folder (a missing folder has nothing to catch up); returns the
 * sessions it imported or updated.
 */
async function catchUp(spec: WatchSpec, dataDir: string): Promise<string[]> {
  if (!existsSync(spec.dir)) return [];
  const summary = await importTranscripts({ harness: spec.harness, sourceDir: spec.dir, dataDir });
  console.error(
    `strand: watch: ${spec.harness} ${spec.dir}: caught up (${summary.imported} imported, ${summary.updated} updated, ${summary.unchanged} unchanged, ${summary.failed} failed)`,
  );
  return changedSessions(summary);
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
 * A `--watch` value parsed; `aider` without a folder is a usage error (exit 2), as for
 * `strand import aider`: its histories are per project, with no folder to default to.
 */
function watchSpecOrUsageError(value: string): WatchSpec {
  try {
    return parseWatchSpec(value);
  } catch (error) {
    if (isImportError(error) && error.code === 'IMPORT_SOURCE_REQUIRED')
      failUsage(error.message, 'strand.serve.no-watch-dir');
    throw error;
  }
}
