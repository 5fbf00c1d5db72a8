import type { SessionConfigOption, SessionModeState } from '@agentclientprotocol/sdk';
import type { ModelCatalogEntry, PresetCatalogEntry, ProjectionValueMap } from '@strand/protocol';

/** The mode of a session without a preset: every tool (what the host runs for `preset: null`). */
export const NO_PRESET_MODE = 'none';
/** The one session config option this agent offers: the model catalog. */
export const MODEL_OPTION = 'model';

/**
 * The host's presets as ACP session modes. The current mode is the session's `agentPreset`
 * projection — the one fold authority for it — never a value remembered here.
 */
export function sessionModes(
  presets: readonly PresetCatalogEntry[],
  values: ProjectionValueMap,
): SessionModeState {
  const current = values.agentPreset;
  return {
    currentModeId: typeof current === 'string' ? current : NO_PRESET_MODE,
    availableModes: [
      ...presets.map((preset) => ({ id: preset.name, name: preset.name, description: preset.description })),
      { id: NO_PRESET_MODE, name: 'no preset', description: 'Every tool, no preset bound.' },
    ],
  };
}

/** A mode id → the preset `session.selectPreset` takes (`null` clears it). */
export function presetOfMode(modeId: string): string | null {
  return modeId === NO_PRESET_MODE ? null : modeId;
}

/** The value id of a model route in the select option. */
export function modelValue(route: { readonly provider: string; readonly model: string }): string {
  return `${route.provider}/${route.model}`;
}

/** The value of a session that recorded no model: the host picks its default at the first request. */
export const HOST_DEFAULT_MODEL = 'default';

/**
 * The model catalog as one `select` config option (category `model`). Its current value is the
 * route the next turn is expected to use — the `modelSelection` projection's
 * `pending ?? lastRequest`. A session that recorded neither shows `default`: only the host knows
 * its default route, and this adapter does not guess it (nor can it be selected back later:
 * Strand has no command that clears a selection).
 */
export function modelOption(
  models: readonly ModelCatalogEntry[],
  values: ProjectionValueMap,
): SessionConfigOption[] {
  const next = expectedRoute(values.modelSelection);
  const options = models.map((entry) => ({ value: modelValue(entry), name: entry.label }));
  if (next !== undefined && !models.some((entry) => modelValue(entry) === modelValue(next)))
    // A recorded route the catalog lacks (an imported session) is shown as it is, never replaced.
    options.push({ value: modelValue(next), name: `${modelValue(next)} (not on this host)` });
  if (next === undefined) options.unshift({ value: HOST_DEFAULT_MODEL, name: "the host's default" });
  return [
    {
      id: MODEL_OPTION,
      name: 'Model',
      category: 'model',
      type: 'select',
      currentValue: next === undefined ? HOST_DEFAULT_MODEL : modelValue(next),
      options,
    },
  ];
}

function expectedRoute(selection: unknown): { provider: string; model: string } | undefined {
  if (typeof selection !== 'object' || selection === null) return undefined;
  const { pending, lastRequest } = selection as { pending?: unknown; lastRequest?: unknown };
  return route(pending) ?? route(lastRequest);
}

function route(value: unknown): { provider: string; model: string } | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { provider, model } = value as { provider?: unknown; model?: unknown };
  return typeof provider === 'string' && typeof model === 'string' ? { provider, model } : undefined;
}
