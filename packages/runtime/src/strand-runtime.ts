import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { FileShareGrantStore } from './share-grants-file.js';
import { AgentController, modelSetFromConfig, subagentTools } from '@strand/agent';
import type { AppendFeed, SessionLeases } from '@strand/postgres';
import type { ModelCatalogEntry } from '@strand/protocol';
import { reportTo, defined } from '@strand/session';
import { composeBaseStack } from '@strand/stack';
import type { SubagentListingContext } from '@strand/subagent';
import {
  foldUnfoldedListHints,
  reconcileListIndex,
  type HostServices,
  type ShareGrantStore,
} from '@strand/host';
import { coordinationPort, leaseOwnership } from './coordination.js';
import { feedLiveSearch } from './live-search-feed.js';
import { loadPresets } from './presets.js';
import { presetTools } from './preset-tools.js';
import { agentPort, catalogPort, subagentPort } from './ports.js';
import { searchPort } from './search-port.js';
import { exportPort } from './export-port.js';
import { resolveRuntimeOptions, type ResolvedStore, type RuntimeOptions } from './runtime-options.js';
import { strandRegistry } from './registry.js';
import { openStores, type RuntimeSearchIndex } from './stores.js';

export type { RuntimeOptions };

export interface StrandRuntime {
  readonly services: HostServices;
  readonly agents: AgentController;
  readonly search: RuntimeSearchIndex;
  /** Which store this runtime serves (files + SQLite, or a shared PostgreSQL database). */
  readonly store: ResolvedStore['kind'];
  /** PostgreSQL store only: this host's session leases and its feed of appends (diagnostics, tests). */
  readonly coordination?: { readonly leases: SessionLeases; readonly feed: AppendFeed };
  /** The subagent listing's cold-read bound in effect. */
  readonly coldReadConcurrency: number;
  /** Resolves when the start-up search sync is done. */
  readonly searchReady: Promise<void>;
  /** Resolves when the list rows reconciled at open have their hints (packages/host/README.md, "List index"). */
  readonly listReady: Promise<void>;
  close(): Promise<void>;
}

/**
 * The composition root: the base stack (`@strand/stack`) plus agents, leases and the host's
 * ports — every package wired once over one store — the data folder's files and
 * SQLite databases, or a PostgreSQL database several hosts share (then with session leases and
 * the cross-host append feed). The host, the CLI and the tests that need a whole Strand build it
 * here and nowhere else. Options are validated first (`RUNTIME_CONFIG_INVALID`).
 */
export async function openStrandRuntime(options: RuntimeOptions): Promise<StrandRuntime> {
  const config = resolveRuntimeOptions(options);
  const dataDir = path.resolve(config.dataDir);
  await mkdir(dataDir, { recursive: true });
  // Before any store opens: a bad model configuration fails without side effects.
  const modelSet = modelSetFromConfig(config.models, {
    ...defined({ defaultRoute: config.defaultModel }),
    scripted: { chunkDelayMs: config.scriptedChunkDelayMs },
  });
  const presets = await loadPresets(path.join(dataDir, 'presets.json'));
  // Grants live with the corpus: the data folder's file on the files backends (read before any
  // store opens, so a malformed file fails without side effects), the database's table on PostgreSQL.
  const fileShares = config.store.kind === 'postgres' ? undefined : await FileShareGrantStore.open(dataDir);
  const { logger } = config;
  const registry = strandRegistry(logger);
  const stores = await openStores(config, registry);
  const shares: ShareGrantStore | undefined = stores.shares ?? fileShares;
  const base = composeBaseStack({
    stores,
    registry,
    logger,
    ...defined({ wrapPersistence: config.wrapPersistence }),
  });
  const { persistence, preparations, store, cache, cacheWrites, query, search } = base;
  const stopLiveSearch = feedLiveSearch(store, search, logger);
  const listing: SubagentListingContext = {
    sessionProjections: registry,
    sessions: store,
    sessionQuery: query,
    sessionProjectionCache: cache,
    limits: { coldReadConcurrency: config.coldReadConcurrency },
  };
  const coordination = stores.coordination;
  const agents = new AgentController({
    persistence,
    preparations,
    store,
    registry,
    query,
    cacheWrites,
    cache,
    // A turn runs on the model its session selected; one this host lacks is refused, not defaulted.
    model: modelSet.resolver(),
    // The model's list_agents reads through the same bounded listing as subagent.list; the
    // session's preset bounds which tools a turn offers.
    tools: presetTools(subagentTools({ listing }), presets),
    ...(coordination === undefined ? {} : { ownership: leaseOwnership(coordination.leases) }),
    logger,
  });
  // The catalog lists exactly the models turns can run on.
  const models: ModelCatalogEntry[] = modelSet.entries.map(({ model, label }) => ({
    provider: model.route.provider,
    model: model.route.model,
    label,
    ...(model === modelSet.default ? { isDefault: true } : {}),
  }));
  const services: HostServices = {
    persistence,
    preparations,
    store,
    registry,
    cache,
    query,
    logger,
    agents: agentPort(agents),
    subagents: subagentPort(listing),
    search: searchPort(search),
    exporter: exportPort(config.harnessEnv),
    catalogs: catalogPort(models, presets),
    ...defined({ shares }),
    ...(coordination === undefined
      ? {}
      : { coordination: coordinationPort(coordination.leases, coordination.feed) }),
  };
  // Before the host serves: every stored session has a list row, so no page is silently short.
  const reconcileDeps = { persistence, query, cache, store, logger };
  await reconcileListIndex(reconcileDeps);
  let closing = false;
  // Hints of rows that have none yet are folded after, in the background (they sort by createdAt
  // meanwhile), read from the index a page at a time: also rows an earlier run left unfolded.
  const listReady = foldUnfoldedListHints(reconcileDeps, () => closing).then(
    () => undefined,
    reportTo(logger, 'folding list hints failed'),
  );
  const searchReady = !config.syncSearch
    ? Promise.resolve()
    : search
        .sync({ persistence, live: store })
        .then(() => undefined, reportTo(logger, 'the search index sync failed'));
  return {
    services,
    agents,
    search,
    store: config.store.kind,
    ...defined({ coordination }),
    coldReadConcurrency: config.coldReadConcurrency,
    searchReady,
    listReady,
    async close() {
      closing = true;
      await listReady;
      await searchReady;
      await agents.close();
      await stopLiveSearch();
      await base.close();
    },
  };
}
