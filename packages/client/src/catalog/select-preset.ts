import type { PresetCatalogEntry } from '@strand/protocol';
import { StrandClientError } from '../errors.js';
import type { ProjectionStore } from '../projection-store/projection-store.js';
import type { CatalogState } from './catalog-state.js';
import { asAgentPreset } from './projection-views.js';

/** A preset name resolved against the roster; a name the roster lacks is shown as unknown. */
export type ResolvedPreset =
  | { readonly kind: 'known'; readonly entry: PresetCatalogEntry }
  | { readonly kind: 'unknown'; readonly name: string };

export type PresetDisplay =
  /** The roster or the session's `agentPreset` is not known yet: show a placeholder, not a default. */
  | { readonly status: 'loading' }
  /** `preset: null`: the session records no preset — it is not replaced by a deployment default. */
  | { readonly status: 'ready'; readonly preset: ResolvedPreset | null }
  /** The roster failed with no previous value, or the projection value is malformed. */
  | { readonly status: 'error'; readonly error: unknown };

/** Combines the preset roster with a session's `agentPreset` projection; ready only when both are. */
export function selectPreset(
  store: ProjectionStore,
  presetCatalog: CatalogState<readonly PresetCatalogEntry[]>,
  sessionId: string,
): PresetDisplay {
  if (presetCatalog.status === 'error' && presetCatalog.last === null) {
    return { status: 'error', error: presetCatalog.error };
  }
  const row = store.get(sessionId, 'agentPreset');
  if (presetCatalog.last === null || !row.known) return { status: 'loading' };
  const name = asAgentPreset(row.value);
  if (name === undefined) {
    return {
      status: 'error',
      error: new StrandClientError('CLIENT_PROJECTION_INVALID', `agentPreset of ${sessionId} is malformed`),
    };
  }
  if (name === null) return { status: 'ready', preset: null };
  const entry = presetCatalog.last.value.find((candidate) => candidate.name === name);
  return {
    status: 'ready',
    preset: entry === undefined ? { kind: 'unknown', name } : { kind: 'known', entry },
  };
}
