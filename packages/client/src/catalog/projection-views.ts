import type { AgentPresetValue, ModelRouteValue, ModelSelectionValue } from '@strand/protocol';
import { isRecord } from '@strand/session';

/**
 * Shape checks for the two projection values the selectors read. The store keeps values as the
 * wire delivered them (`unknown`); a selector checks before trusting one, so a host that sends a
 * malformed value yields a named error, not a wrong label.
 */

function asRoute(value: unknown): ModelRouteValue | null | undefined {
  if (value === null) return null;
  if (!isRecord(value) || typeof value.provider !== 'string' || typeof value.model !== 'string')
    return undefined;
  if (value.reasoningEffort === undefined) return { provider: value.provider, model: value.model };
  if (typeof value.reasoningEffort !== 'string') return undefined;
  return { provider: value.provider, model: value.model, reasoningEffort: value.reasoningEffort };
}

/** `undefined` when `value` is not a `ModelSelectionValue`. */
export function asModelSelection(value: unknown): ModelSelectionValue | undefined {
  if (value === null) return null;
  if (!isRecord(value)) return undefined;
  const lastRequest = asRoute(value.lastRequest);
  const pending = asRoute(value.pending);
  if (lastRequest === undefined || pending === undefined) return undefined;
  return { lastRequest, pending };
}

/** `undefined` when `value` is not an `AgentPresetValue`. */
export function asAgentPreset(value: unknown): AgentPresetValue | undefined {
  return value === null || typeof value === 'string' ? value : undefined;
}
