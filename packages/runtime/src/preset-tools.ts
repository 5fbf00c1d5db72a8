import { AgentError, type ToolRegistry, type TurnSetup } from '@strand/agent';
import type { PresetCatalogEntry } from '@strand/protocol';

/**
 * The tools a turn offers, bounded by its session's preset: the preset's `allowedTools` only (a
 * call to another registered tool gets `AGENT_TOOL_NOT_ALLOWED` instead of running). A session
 * without a preset — and a subagent child, which has none — gets every tool. A preset that is
 * not in the catalog (the file changed since it was selected) refuses the turn rather than
 * guessing a bound: `AGENT_PRESET_UNAVAILABLE`.
 */
export function presetTools(
  tools: ToolRegistry,
  presets: readonly PresetCatalogEntry[],
): (setup: TurnSetup) => ToolRegistry {
  const bounded = new Map(presets.map((preset) => [preset.name, tools.only(preset.allowedTools)]));
  return ({ header, preset }) => {
    if (preset === null) return tools;
    const registry = bounded.get(preset);
    if (registry !== undefined) return registry;
    throw new AgentError(
      'AGENT_PRESET_UNAVAILABLE',
      `preset ${preset} is not configured on this host; select one of ${presets.map((p) => p.name).join(', ')}`,
      { sessionId: header.id, details: { preset } },
    );
  };
}
