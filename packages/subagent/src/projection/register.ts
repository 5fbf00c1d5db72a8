import type { ProjectionRegistry } from '@strand/projection';
import { subagentIdentityUnit } from './identity-unit.js';
import { subagentTimingUnit } from './timing-unit.js';

/**
 * Registers the subagent domain's units (`subagentTiming`, `subagent`) — the one place their fold
 * rules enter a registry. All or nothing: a key conflict on the second unregisters the first.
 * Registering again with the same registry is a no-op. Returns a disposer that unregisters both.
 */
export function registerSubagentUnits(registry: Pick<ProjectionRegistry, 'register'>): () => void {
  const disposeTiming = registry.register(subagentTimingUnit);
  let disposeIdentity: () => void;
  try {
    disposeIdentity = registry.register(subagentIdentityUnit);
  } catch (error) {
    disposeTiming();
    throw error;
  }
  return () => {
    disposeIdentity();
    disposeTiming();
  };
}
