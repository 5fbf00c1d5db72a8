import type { ModelCatalogEntry, ModelRouteValue } from '@strand/protocol';
import { StrandClientError } from '../errors.js';
import type { ProjectionStore } from '../projection-store/projection-store.js';
import type { CatalogState } from './catalog-state.js';
import { asModelSelection } from './projection-views.js';

/** A route resolved against the catalog; a route the catalog lacks is shown as unknown, never replaced. */
export type ResolvedModel =
  | { readonly kind: 'known'; readonly route: ModelRouteValue; readonly entry: ModelCatalogEntry }
  | { readonly kind: 'unknown'; readonly route: ModelRouteValue };

export type ModelDisplay =
  /** The catalog or the session's `modelSelection` is not known yet: show a placeholder, not a guess. */
  | { readonly status: 'loading' }
  | {
      readonly status: 'ready';
      /** The route the next turn is expected to use (`pending ?? lastRequest`); `null` when the log records neither. */
      readonly current: ResolvedModel | null;
      /** `current` is a selection no request has used yet. */
      readonly isPending: boolean;
      /** The route the most recent request actually used. */
      readonly lastRequest: ResolvedModel | null;
    }
  /** The catalog failed with no previous value, or the projection value is malformed. */
  | { readonly status: 'error'; readonly error: unknown };

export function resolveModel(catalog: readonly ModelCatalogEntry[], route: ModelRouteValue): ResolvedModel {
  const entry = catalog.find(
    (candidate) => candidate.provider === route.provider && candidate.model === route.model,
  );
  return entry === undefined ? { kind: 'unknown', route } : { kind: 'known', route, entry };
}

/** Combines the model catalog with a session's `modelSelection` projection; ready only when both are. */
export function selectModel(
  store: ProjectionStore,
  modelCatalog: CatalogState<readonly ModelCatalogEntry[]>,
  sessionId: string,
): ModelDisplay {
  if (modelCatalog.status === 'error' && modelCatalog.last === null) {
    return { status: 'error', error: modelCatalog.error };
  }
  const row = store.get(sessionId, 'modelSelection');
  if (modelCatalog.last === null || !row.known) return { status: 'loading' };
  const selection = asModelSelection(row.value);
  if (selection === undefined) {
    return {
      status: 'error',
      error: new StrandClientError(
        'CLIENT_PROJECTION_INVALID',
        `modelSelection of ${sessionId} is malformed`,
      ),
    };
  }
  const catalog = modelCatalog.last.value;
  const lastRequest = selection?.lastRequest ?? null;
  const pending = selection?.pending ?? null;
  const current = pending ?? lastRequest;
  return {
    status: 'ready',
    current: current === null ? null : resolveModel(catalog, current),
    isPending: pending !== null,
    lastRequest: lastRequest === null ? null : resolveModel(catalog, lastRequest),
  };
}
