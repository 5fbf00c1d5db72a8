import { describe, expect, it } from 'vitest';
import { isAgentError } from '../errors.js';
import { ModelSet, modelSetFromConfig, SCRIPTED_ROUTE } from './model-set.js';
import { OpenAICompatibleModel } from './openai/openai-compatible-model.js';
import { ScriptedModel } from './scripted/scripted-model.js';

const local = { baseUrl: 'http://127.0.0.1:9/v1', model: 'llama', provider: 'local' };
const paid = { baseUrl: 'https://api.example/v1', model: 'gpt-4o-mini', provider: 'openai' };

describe('ModelSet', () => {
  it('always holds the scripted model first, then the endpoints in configuration order', () => {
    const set = modelSetFromConfig([local, paid]);
    expect(set.entries.map((e) => e.model.route)).toEqual([
      SCRIPTED_ROUTE,
      { provider: 'local', model: 'llama' },
      { provider: 'openai', model: 'gpt-4o-mini' },
    ]);
    expect(set.entries[1]!.label).toBe('llama (http://127.0.0.1:9/v1)');
    expect(modelSetFromConfig([{ ...paid, label: 'GPT mini' }]).entries[1]!.label).toBe('GPT mini');
  });

  it('resolves a selection to the model serving its provider and model, whatever its reasoning effort', () => {
    const set = modelSetFromConfig([local, paid]);
    expect(set.resolve({ provider: 'openai', model: 'gpt-4o-mini', reasoningEffort: 'high' })).toBeInstanceOf(
      OpenAICompatibleModel,
    );
    expect(set.resolve(SCRIPTED_ROUTE)).toBeInstanceOf(ScriptedModel);
  });

  it('gives a session without any selection the first endpoint, or the configured default, or scripted', () => {
    expect(modelSetFromConfig([]).resolve(null).route).toEqual(SCRIPTED_ROUTE);
    expect(modelSetFromConfig([local, paid]).resolve(null).route.model).toBe('llama');
    expect(modelSetFromConfig([local, paid], { defaultRoute: SCRIPTED_ROUTE }).resolve(null).route).toEqual(
      SCRIPTED_ROUTE,
    );
  });

  it('refuses a route it does not have with AGENT_MODEL_UNAVAILABLE, never a default', () => {
    const set = modelSetFromConfig([local]);
    let caught: unknown;
    try {
      set.resolve({ provider: 'openai', model: 'gpt-4o-mini' }, 's-1');
    } catch (error) {
      caught = error;
    }
    expect(isAgentError(caught, 'AGENT_MODEL_UNAVAILABLE')).toBe(true);
    expect(caught).toMatchObject({ sessionId: 's-1', details: { provider: 'openai', model: 'gpt-4o-mini' } });
    expect((caught as Error).message).toContain('strand/scripted, local/llama');
  });

  it('tells routes apart even when names contain a slash', () => {
    const set = new ModelSet([
      { model: new ScriptedModel({ route: { provider: 'a/b', model: 'c' } }), label: 'one' },
      { model: new ScriptedModel({ route: { provider: 'a', model: 'b/c' } }), label: 'two' },
    ]);
    expect(set.find({ provider: 'a', model: 'b/c' })?.route.provider).toBe('a');
  });

  it('refuses a route configured twice and a default that is not configured (AGENT_CONFIG_INVALID)', () => {
    const invalid = expect.toSatisfy((e) => isAgentError(e, 'AGENT_CONFIG_INVALID'));
    expect(() => modelSetFromConfig([local, { ...local, baseUrl: 'http://127.0.0.1:10/v1' }])).toThrow(
      invalid,
    );
    expect(() => modelSetFromConfig([local], { defaultRoute: { provider: 'x', model: 'y' } })).toThrow(
      invalid,
    );
  });
});
