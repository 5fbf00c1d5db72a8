import type { ProjectionUnit } from '../../types.js';
import { isRecord } from '../read.js';

/** The session's agent preset; `null` means none is recorded (explicitly or not at all). */
export type AgentPresetState = string | null;
export type AgentPresetView = string | null;

declare module '../../types.js' {
  interface ProjectionStateMap {
    agentPreset: AgentPresetState;
  }
  interface ProjectionViewMap {
    agentPreset: AgentPresetView;
  }
}

export const AGENT_PRESET_READS: readonly string[] = ['agent-preset/select'];

/**
 * Initialized from the header's `agentPreset` (the header never changes for a session), advanced
 * by `agent-preset/select`, last-wins. A missing or `null` preset stays `null`: it is never replaced
 * by a deployment default — the default of today is not what the session ran with.
 */
export const agentPresetUnit: ProjectionUnit<AgentPresetState, AgentPresetView, 'agentPreset'> = {
  key: 'agentPreset',
  stateVersion: 1,
  dataReads: AGENT_PRESET_READS,
  init: (header) => (typeof header.agentPreset === 'string' ? header.agentPreset : null),
  apply(state, event) {
    if (event.type !== 'agent-preset/select') return state;
    const data = event.data;
    return isRecord(data) && typeof data.preset === 'string' ? data.preset : null;
  },
  view: (state) => state,
};
