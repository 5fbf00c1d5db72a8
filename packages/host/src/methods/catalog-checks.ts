import { HostError } from '../errors.js';
import type { CatalogPort } from '../ports.js';
import type { HostServices } from '../services.js';

/**
 * A person's choice is checked against what the host offers before it is recorded: a selection
 * the catalog does not list would be accepted now and fail (or, worse, be ignored) at the next
 * turn. Refusals append nothing. Without a catalog nothing can be checked, so nothing is accepted.
 */
export async function requireListedModel(
  services: HostServices,
  route: { readonly provider: string; readonly model: string },
): Promise<void> {
  const models = await catalogsOf(services).models();
  if (models.some((m) => m.provider === route.provider && m.model === route.model)) return;
  throw new HostError(
    'HOST_MODEL_UNKNOWN',
    `model ${route.provider}/${route.model} is not in this host's catalog (catalog.models)`,
    { provider: route.provider, model: route.model },
  );
}

/** `null` (no preset) is always allowed. */
export async function requireListedPreset(services: HostServices, preset: string | null): Promise<void> {
  if (preset === null) return;
  const presets = await catalogsOf(services).presets();
  if (presets.some((p) => p.name === preset)) return;
  throw new HostError(
    'HOST_PRESET_UNKNOWN',
    `preset ${preset} is not in this host's catalog (catalog.presets)`,
    {
      preset,
    },
  );
}

/** The host's catalogs; a host without them refuses every catalog read and every choice checked against one. */
export function catalogsOf(services: HostServices): CatalogPort {
  if (services.catalogs === undefined)
    throw new HostError('HOST_CATALOG_UNAVAILABLE', 'this host has no model or preset catalog');
  return services.catalogs;
}
