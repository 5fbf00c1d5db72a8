import { BUILT_IN_UNITS, ProjectionRegistry, type ProjectionUnitFor } from '@strand/projection';
import { describe, expect, it } from 'vitest';
import { registerSubagentUnits } from './register.js';

describe('registerSubagentUnits', () => {
  it('registers subagentTiming and subagent beside the built-in units; registering again is a no-op', () => {
    const registry = new ProjectionRegistry({ units: BUILT_IN_UNITS });
    registerSubagentUnits(registry);
    registerSubagentUnits(registry);
    expect(registry.keys()).toEqual([
      'title',
      'listMetadata',
      'modelSelection',
      'agentPreset',
      'usage',
      'continuedFrom',
      'subagentTiming',
      'subagent',
    ]);
    expect(registry.unit('subagent')?.stateVersion).toBe(2);
  });

  it('is all or nothing: a conflicting subagent key leaves subagentTiming unregistered too', () => {
    const registry = new ProjectionRegistry();
    const impostor: ProjectionUnitFor<'subagent'> = {
      key: 'subagent',
      stateVersion: 1,
      init: () => ({}),
      apply: (s) => s,
      view: () => null,
    };
    registry.register(impostor);
    expect(() => registerSubagentUnits(registry)).toThrow(
      expect.objectContaining({ code: 'PROJECTION_KEY_CONFLICT' }) as Error,
    );
    expect(registry.keys()).toEqual(['subagent']);
  });

  it('returns a disposer that unregisters both', () => {
    const registry = new ProjectionRegistry();
    registerSubagentUnits(registry)();
    expect(registry.keys()).toEqual([]);
  });
});
