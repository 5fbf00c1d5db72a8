import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { parseJsonConfig } from './json-config.js';
import type { ModelConfig } from '@strand/agent';
import { RUNTIME_ERRORS } from '@strand/session/errors';

/**
 * The models a host runs besides the built-in scripted one, from a JSON file
 * (`strand serve --models <file>`):
 *
 * ```json
 * { "default": { "provider": "local", "model": "llama3.1" },
 *   "models": [{ "provider": "local", "model": "llama3.1", "baseUrl": "http://127.0.0.1:11434/v1" }] }
 * ```
 *
 * Only the shape is checked here; each endpoint's own factory checks its values
 * (`AGENT_CONFIG_INVALID`: a bad URL, a duplicate route).
 */
export interface ModelsFile {
  readonly models: readonly ModelConfig[];
  /** The route of a session that never selected a model (default: the first endpoint). */
  readonly default?: { readonly provider: string; readonly model: string };
}

const Route = z.strictObject({ provider: z.string().min(1).max(200), model: z.string().min(1).max(200) });

const Endpoint = z.strictObject({
  provider: z.string().min(1).max(200).optional(),
  model: z.string().min(1).max(200),
  baseUrl: z.string().min(1).max(2000),
  label: z.string().min(1).max(200).optional(),
  /** The variable holding the key; absent: `OPENAI_API_KEY` if set, else no key (a local server). */
  apiKeyEnv: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name')
    .optional(),
  reasoningEffort: z.string().min(1).max(50).optional(),
  idleTimeoutMs: z.number().int().min(1).max(3_600_000).optional(),
});

const File = z.strictObject({
  default: Route.optional(),
  models: z.array(Endpoint).max(100),
});

export class ModelsConfigError extends RUNTIME_ERRORS.codeClass(
  'RUNTIME_MODELS_INVALID',
  'ModelsConfigError',
) {}

/** Reads and validates a models file; a missing or malformed file is a clear error naming it. */
export async function loadModelsFile(file: string): Promise<ModelsFile> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new ModelsConfigError(`cannot read the models file ${file}: ${(error as Error).message}`);
  }
  const data = parseJsonConfig(file, text, File, (message) => new ModelsConfigError(message));
  const models = data.models.map((m): ModelConfig => {
    const config: { -readonly [K in keyof ModelConfig]: ModelConfig[K] } = {
      model: m.model,
      baseUrl: m.baseUrl,
    };
    if (m.provider !== undefined) config.provider = m.provider;
    if (m.label !== undefined) config.label = m.label;
    if (m.apiKeyEnv !== undefined) config.apiKeyEnv = m.apiKeyEnv;
    if (m.reasoningEffort !== undefined) config.reasoningEffort = m.reasoningEffort;
    if (m.idleTimeoutMs !== undefined) config.idleTimeoutMs = m.idleTimeoutMs;
    return config;
  });
  return data.default === undefined ? { models } : { models, default: data.default };
}
