import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { AgentController, modelFromConfig, type ModelConfig } from '@strand/agent';
import {
  SessionPreparations,
  openJsonlPersistence,
  openSqlitePersistence,
  type SessionPersistence,
} from '@strand/persistence';
import { BUILT_IN_UNITS, ProjectionRegistry } from '@strand/projection';
import { CacheWritePolicy, ProjectionCache } from '@strand/projection-cache';
import type { ModelCatalogEntry } from '@strand/protocol';
import { SessionQuery, SessionSearchIndex } from '@strand/query';
import { SessionStore } from '@strand/session';
import { registerSubagentUnits } from '@strand/subagent';
import type { HostServices } from '../services.js';
import { feedLiveSearch } from './live-search-feed.js';
import { loadPresets } from './presets.js';
import { agentPort, catalogPort, searchPort, subagentPort } from './ports.js';

export interface RuntimeOptions {
  /** The data folder: session logs, projection cache, search index, presets.json. */
  readonly dataDir: string;
  /** `jsonl` (default: JSONL + zstd files) or `sqlite` (one database file). */
  readonly backend?: 'jsonl' | 'sqlite';
  /** An OpenAI-compatible model; default the built-in deterministic scripted model. */
  readonly model?: ModelConfig;
  /** Index the persisted corpus for search when the runtime opens (default true; runs in the background). */
  readonly syncSearch?: boolean;
}

export interface StrandRuntime {
  readonly services: HostServices;
  readonly agents: AgentController;
  readonly search: SessionSearchIndex;
  /** Resolves when the start-up search sync is done. */
  readonly searchReady: Promise<void>;
  close(): Promise<void>;
}

/**
 * The composition root: every package wired once over one data folder. The host, the CLI and
 * the tests that need a whole Strand build it here and nowhere else.
 */
export async function openStrandRuntime(options: RuntimeOptions): Promise<StrandRuntime> {
  const dataDir = path.resolve(options.dataDir);
  await mkdir(dataDir, { recursive: true });
  const persistence: SessionPersistence =
    options.backend === 'sqlite'
      ? openSqlitePersistence({ path: path.join(dataDir, 'strand.db') })
      : await openJsonlPersistence({ root: dataDir });
  const preparations = new SessionPreparations(persistence);
  const store = new SessionStore();
  const registry = new ProjectionRegistry();
  for (const unit of BUILT_IN_UNITS) registry.register(unit);
  registerSubagentUnits(registry);
  const cache = ProjectionCache.open({ path: path.join(dataDir, 'projection-cache.db'), registry });
  const cacheWrites = new CacheWritePolicy({
    registry,
    cache,
    flush: () => persistence.flush(),
    logger: console,
  });
  const query = new SessionQuery({ persistence, preparations, store, registry, cache });
  const search = SessionSearchIndex.open({ path: path.join(dataDir, 'search.db') });
  const stopLiveSearch = feedLiveSearch(store, search);
  const model = modelFromConfig(options.model ?? {});
  const agents = new AgentController({
    persistence,
    preparations,
    store,
    registry,
    query,
    cacheWrites,
    cache,
    model,
  });
  const models: ModelCatalogEntry[] = [
    { provider: 'strand', model: 'scripted', label: 'Scripted (built-in, deterministic)' },
  ];
  if (options.model?.baseUrl !== undefined && options.model.model !== undefined) {
    models.push({
      provider: options.model.provider ?? 'openai-compatible',
      model: options.model.model,
      label: `${options.model.model} (${options.model.baseUrl})`,
    });
  }
  const presets = await loadPresets(path.join(dataDir, 'presets.json'));
  const services: HostServices = {
    persistence,
    preparations,
    store,
    registry,
    cache,
    query,
    agents: agentPort(agents),
    subagents: subagentPort({
      sessionProjections: registry,
      sessions: store,
      sessionQuery: query,
      sessionProjectionCache: cache,
    }),
    search: searchPort(search),
    catalogs: catalogPort(models, presets),
  };
  const searchReady =
    options.syncSearch === false
      ? Promise.resolve()
      : search.sync({ persistence, live: store }).then(
          () => undefined,
          (error: unknown) => console.error('strand: search index sync failed', error),
        );
  return {
    services,
    agents,
    search,
    searchReady,
    async close() {
      await searchReady;
      await agents.close();
      stopLiveSearch();
      await cacheWrites.drain();
      cacheWrites.dispose();
      query.close();
      search.close();
      cache.close();
      await persistence.close();
    },
  };
}
