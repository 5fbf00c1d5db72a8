import { defined } from '@strand/session';
import { AgentError } from '../errors.js';
import type { Model } from './model.js';
import { OpenAICompatibleModel } from './openai/openai-compatible-model.js';
import { ScriptedModel } from './scripted/scripted-model.js';

/** What a command line or config file says about the model (`--model`, `--base-url`, key variable). */
export interface ModelConfig {
  readonly model?: string;
  readonly baseUrl?: string;
  /**
   * Environment variable with the API key. When given, the key is required; when not, `OPENAI_API_KEY`
   * is sent if set (a local server needs none).
   */
  readonly apiKeyEnv?: string;
  readonly provider?: string;
  /** What the model picker shows (default: the model name and its base URL). */
  readonly label?: string;
  readonly reasoningEffort?: string;
  readonly idleTimeoutMs?: number;
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * The model a host runs with: the deterministic `ScriptedModel` when nothing is configured, an
 * `OpenAICompatibleModel` when a base URL is. A model name alone is not enough (there is no
 * default endpoint to send it to): `AGENT_CONFIG_INVALID`.
 */
export function modelFromConfig(config: ModelConfig = {}): Model {
  if (config.baseUrl === undefined) {
    if (config.model !== undefined && config.model !== 'scripted') {
      throw new AgentError('AGENT_CONFIG_INVALID', `model ${config.model} needs a base URL`);
    }
    return new ScriptedModel();
  }
  if (config.model === undefined)
    throw new AgentError('AGENT_CONFIG_INVALID', 'a base URL needs a model name');
  return new OpenAICompatibleModel({
    baseUrl: config.baseUrl,
    model: config.model,
    apiKeyEnv: config.apiKeyEnv ?? 'OPENAI_API_KEY',
    apiKeyOptional: config.apiKeyEnv === undefined,
    ...defined({
      provider: config.provider,
      reasoningEffort: config.reasoningEffort,
      idleTimeoutMs: config.idleTimeoutMs,
      env: config.env,
    }),
  });
}
