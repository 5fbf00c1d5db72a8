import { defined } from '@strand/session';
import { BUILT_IN_UNITS, ProjectionRegistry } from '@strand/projection';
import type { Logger } from '@strand/session';
import { registerSubagentUnits } from '@strand/subagent';

/**
 * The host's unit set: the built-in units plus the subagent units. Everything that writes
 * projection cache rows a host later serves (the runtime, `strand import`) folds with this set,
 * so a row's key and stateVersion are ones the host's registry accepts.
 */
export function strandRegistry(logger?: Logger): ProjectionRegistry {
  const registry = new ProjectionRegistry(defined({ logger }));
  for (const unit of BUILT_IN_UNITS) registry.register(unit);
  registerSubagentUnits(registry);
  return registry;
}
