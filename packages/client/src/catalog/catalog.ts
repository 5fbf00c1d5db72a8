import type { ModelCatalogEntry, PresetCatalogEntry } from '@strand/protocol';
import { Listeners, reportToConsole, type ListenerErrorReporter } from '../listeners.js';
import {
  catalogFailed,
  catalogLoaded,
  catalogLoading,
  catalogRefreshing,
  type CatalogState,
} from './catalog-state.js';
import type { RpcCaller } from '../connection/rpc-caller.js';

/**
 * A catalog beside the projection store: its loader, its readiness, its subscribers. Overlapping
 * refreshes resolve in request order — a slower, older load never overwrites a newer one.
 */
export class Catalog<T> {
  private current: CatalogState<T> = catalogLoading();
  private latest = 0;
  private readonly listeners: Listeners<CatalogState<T>>;

  constructor(
    private readonly load: () => Promise<T>,
    reportListenerError: ListenerErrorReporter = reportToConsole,
  ) {
    this.listeners = new Listeners(reportListenerError);
  }

  get state(): CatalogState<T> {
    return this.current;
  }

  /** Loads the catalog; never rejects — a failure is the `error` state, keeping the previous value. */
  async refresh(): Promise<CatalogState<T>> {
    const ticket = ++this.latest;
    if (this.current.status !== 'loading' || this.current.last !== null)
      this.set(catalogRefreshing(this.current));
    let next: CatalogState<T>;
    try {
      next = catalogLoaded(await this.load());
    } catch (error) {
      next = catalogFailed(this.current, error);
    }
    if (ticket === this.latest) this.set(next);
    return this.current;
  }

  subscribe(listener: (state: CatalogState<T>) => void): () => void {
    return this.listeners.add(listener);
  }

  private set(state: CatalogState<T>): void {
    this.current = state;
    this.listeners.emit(state);
  }
}

export type ModelCatalog = Catalog<readonly ModelCatalogEntry[]>;
export type PresetCatalog = Catalog<readonly PresetCatalogEntry[]>;

/** The host's model catalog (`catalog.models`). Call `refresh()` to load it. */
export function createModelCatalog(rpc: RpcCaller): ModelCatalog {
  return new Catalog(async () => (await rpc.call('catalog.models', {})).models);
}

/** The host's agent-preset roster (`catalog.presets`). Call `refresh()` to load it. */
export function createPresetCatalog(rpc: RpcCaller): PresetCatalog {
  return new Catalog(async () => (await rpc.call('catalog.presets', {})).presets);
}
