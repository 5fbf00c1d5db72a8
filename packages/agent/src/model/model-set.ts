import { defined } from '@strand/session';
import { AgentError } from '../errors.js';
import type { Model, ModelResolver, ModelRoute } from './model.js';
import { modelFromConfig, type ModelConfig } from './model-from-config.js';
import { ScriptedModel, type ScriptedModelOptions } from './scripted/scripted-model.js';

/** The route of the built-in scripted model, always part of a host's models. */
export const SCRIPTED_ROUTE: ModelRoute = { provider: 'strand', model: 'scripted' };

export interface ModelSetEntry {
  readonly model: Model;
  /** What a person sees in the model picker. */
  readonly label: string;
}

export interface ModelSetOptions {
  /** The route a session that never selected one runs on (default: the first endpoint, else scripted). */
  readonly defaultRoute?: ModelRoute;
  /** Options of the built-in scripted model (`strand serve --demo` streams its replies slowly). */
  readonly scripted?: Pick<ScriptedModelOptions, 'chunkDelayMs' | 'pause'>;
}

/**
 * The models one host runs: the built-in scripted model always, then every configured endpoint.
 * A route is the pair provider + model (a selection's `reasoningEffort` does not pick another
 * model). Resolution never substitutes a default for a route it does not know: a session whose
 * recorded model is not here is refused `AGENT_MODEL_UNAVAILABLE`, so a changed configuration or
 * an imported session cannot silently run somewhere else.
 */
export class ModelSet {
  readonly #entries: readonly ModelSetEntry[];
  readonly #byRoute = new Map<string, Model>();
  readonly #default: Model;

  constructor(entries: readonly ModelSetEntry[], options: ModelSetOptions = {}) {
    const all: ModelSetEntry[] = [];
    if (!entries.some((entry) => sameModel(entry.model.route, SCRIPTED_ROUTE)))
      all.push({ model: new ScriptedModel(options.scripted), label: 'Scripted (built-in, deterministic)' });
    all.push(...entries);
    for (const entry of all) {
      const key = routeKey(entry.model.route);
      if (this.#byRoute.has(key))
        throw new AgentError('AGENT_CONFIG_INVALID', `model ${shown(entry.model.route)} is configured twice`);
      this.#byRoute.set(key, entry.model);
    }
    this.#entries = all;
    const fallback = all.find((entry) => !sameModel(entry.model.route, SCRIPTED_ROUTE)) ?? all[0]!;
    if (options.defaultRoute === undefined) this.#default = fallback.model;
    else {
      const chosen = this.#byRoute.get(routeKey(options.defaultRoute));
      if (chosen === undefined)
        throw new AgentError(
          'AGENT_CONFIG_INVALID',
          `the default model ${shown(options.defaultRoute)} is not configured`,
        );
      this.#default = chosen;
    }
  }

  /** Every model, the scripted one first, in configuration order. */
  get entries(): readonly ModelSetEntry[] {
    return this.#entries;
  }

  get default(): Model {
    return this.#default;
  }

  /** The model serving `route` (provider + model), if this set has one. */
  find(route: Pick<ModelRoute, 'provider' | 'model'>): Model | undefined {
    return this.#byRoute.get(routeKey(route));
  }

  /** The model for a session's expected route; `null` (nothing selected, nothing run yet) is the default. */
  resolve(selection: ModelRoute | null, sessionId?: string): Model {
    if (selection === null) return this.#default;
    const model = this.find(selection);
    if (model !== undefined) return model;
    throw new AgentError(
      'AGENT_MODEL_UNAVAILABLE',
      `model ${shown(selection)} is not configured on this host; select one of ${this.#entries.map((e) => shown(e.model.route)).join(', ')}`,
      {
        ...defined({ sessionId }),
        details: { provider: selection.provider, model: selection.model },
      },
    );
  }

  /** A resolver for `AgentControllerOptions.model`. */
  resolver(): ModelResolver {
    return ({ header, selection }) => this.resolve(selection, header.id);
  }
}

/** The set a host's configuration describes; each config is validated by `modelFromConfig`. */
export function modelSetFromConfig(configs: readonly ModelConfig[], options: ModelSetOptions = {}): ModelSet {
  return new ModelSet(
    configs.map((config) => {
      const model = modelFromConfig(config);
      return {
        model,
        label:
          config.label ??
          (config.baseUrl === undefined ? model.route.model : `${model.route.model} (${config.baseUrl})`),
      };
    }),
    options,
  );
}

/** A map key: provider and model names may themselves contain `/`, never NUL. */
function routeKey(route: Pick<ModelRoute, 'provider' | 'model'>): string {
  return `${route.provider}\u0000${route.model}`;
}

function shown(route: Pick<ModelRoute, 'provider' | 'model'>): string {
  return `${route.provider}/${route.model}`;
}

function sameModel(a: ModelRoute, b: ModelRoute): boolean {
  return a.provider === b.provider && a.model === b.model;
}
