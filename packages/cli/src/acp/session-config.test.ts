import { describe, expect, it } from 'vitest';
import { HOST_DEFAULT_MODEL, modelOption, presetOfMode, sessionModes } from './session-config.js';

const PRESETS = [
  { name: 'general', description: 'g', allowedTools: [] },
  { name: 'solo', description: 's', allowedTools: [] },
];
const MODELS = [
  { provider: 'strand', model: 'scripted', label: 'Scripted' },
  { provider: 'local', model: 'm1', label: 'M1' },
];

describe('session config (presets as modes, the model catalog as a select option)', () => {
  it('the current mode is the agentPreset projection; no preset is the `none` mode', () => {
    expect(sessionModes(PRESETS, { agentPreset: 'solo' }).currentModeId).toBe('solo');
    const none = sessionModes(PRESETS, { agentPreset: null });
    expect(none.currentModeId).toBe('none');
    expect(none.availableModes.map((m) => m.id)).toEqual(['general', 'solo', 'none']);
    expect(presetOfMode('none')).toBeNull();
    expect(presetOfMode('solo')).toBe('solo');
  });

  it('the current model is pending ?? lastRequest; none recorded is the host default', () => {
    const pending = modelOption(MODELS, {
      modelSelection: {
        pending: { provider: 'local', model: 'm1' },
        lastRequest: { provider: 'strand', model: 'scripted' },
      },
    })[0]!;
    expect(pending.type === 'select' && pending.currentValue).toBe('local/m1');
    const used = modelOption(MODELS, {
      modelSelection: { pending: null, lastRequest: { provider: 'strand', model: 'scripted' } },
    })[0]!;
    expect(used.type === 'select' && used.currentValue).toBe('strand/scripted');
    const fresh = modelOption(MODELS, { modelSelection: null })[0]!;
    expect(fresh.type === 'select' && fresh.currentValue).toBe(HOST_DEFAULT_MODEL);
  });

  it('a recorded route the catalog lacks is shown as it is, never replaced', () => {
    const option = modelOption(MODELS, {
      modelSelection: { pending: null, lastRequest: { provider: 'anthropic', model: 'claude' } },
    })[0]!;
    expect(option.type === 'select' && option.currentValue).toBe('anthropic/claude');
    expect(option.type === 'select' && option.options.map((o) => ('value' in o ? o.value : ''))).toContain(
      'anthropic/claude',
    );
  });
});
