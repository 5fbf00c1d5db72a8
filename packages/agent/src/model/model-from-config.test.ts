import { describe, expect, it } from 'vitest';
import { isAgentError } from '../errors.js';
import { modelFromConfig } from './model-from-config.js';
import { OpenAICompatibleModel } from './openai/openai-compatible-model.js';
import { ScriptedModel } from './scripted/scripted-model.js';

describe('modelFromConfig', () => {
  it('is the scripted model when nothing is configured', () => {
    expect(modelFromConfig()).toBeInstanceOf(ScriptedModel);
    expect(modelFromConfig({ model: 'scripted' })).toBeInstanceOf(ScriptedModel);
  });

  it('is an OpenAI-compatible model when a base URL and a model are given', () => {
    const model = modelFromConfig({
      baseUrl: 'http://localhost:11434/v1',
      model: 'llama',
      provider: 'ollama',
    });
    expect(model).toBeInstanceOf(OpenAICompatibleModel);
    expect(model.route).toEqual({ provider: 'ollama', model: 'llama' });
  });

  it('refuses a model without a base URL and a base URL without a model', () => {
    expect(() => modelFromConfig({ model: 'gpt-4o' })).toThrow(
      expect.toSatisfy((e) => isAgentError(e, 'AGENT_CONFIG_INVALID')),
    );
    expect(() => modelFromConfig({ baseUrl: 'http://x/v1' })).toThrow(
      expect.toSatisfy((e) => isAgentError(e, 'AGENT_CONFIG_INVALID')),
    );
  });
});
