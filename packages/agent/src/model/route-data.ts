import type { ModelRoute } from './model.js';

/**
 * A route as `model/selection` / `request/header` data: only its own fields, because the core
 * schema refuses unknown keys and a model object may carry more.
 */
export function routeData(route: ModelRoute): Record<string, string> {
  const { provider, model, reasoningEffort } = route;
  return reasoningEffort === undefined ? { provider, model } : { provider, model, reasoningEffort };
}
