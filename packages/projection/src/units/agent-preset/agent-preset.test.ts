import { describe, expect, it } from 'vitest';
import { foldView, header, log } from '../../testing/events.js';
import { describeUnitLaws } from '../../testing/unit-laws.js';
import { AGENT_PRESET_READS, agentPresetUnit } from './agent-preset.js';

describe('agentPreset unit', () => {
  it('is initialized from the header preset', () => {
    expect(foldView(agentPresetUnit, [], header('coder'))).toBe('coder');
  });

  it('keeps a missing or null header preset as null (never a deployment default)', () => {
    expect(foldView(agentPresetUnit, log(['turn/start', {}]), header())).toBeNull();
    expect(foldView(agentPresetUnit, log(['turn/start', {}]), header(null))).toBeNull();
  });

  it('is advanced by agent-preset/select, last-wins, null and corrupt included', () => {
    expect(
      foldView(agentPresetUnit, log(['agent-preset/select', { preset: 'reviewer' }]), header('coder')),
    ).toBe('reviewer');
    expect(
      foldView(agentPresetUnit, log(['agent-preset/select', { preset: null }]), header('coder')),
    ).toBeNull();
    expect(
      foldView(agentPresetUnit, log(['agent-preset/select', { preset: 4 }]), header('coder')),
    ).toBeNull();
  });
});

describeUnitLaws(agentPresetUnit, AGENT_PRESET_READS);
