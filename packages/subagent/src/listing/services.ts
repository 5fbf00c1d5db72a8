import { SubagentControlError } from '../errors.js';
import { SUBAGENT_IDENTITY_KEY } from '../projection/identity-unit.js';
import type { ListingServices, SubagentListingContext } from './types.js';

/**
 * The required-service check, run before anything is read — so a deployment missing a service
 * fails loudly even for a parent with no children (the listing contract: no empty result disguises a missing
 * classification or corpus capability). A registry without the `subagent` unit cannot classify
 * anything either, so it counts as missing.
 */
export function requireListingServices(ctx: SubagentListingContext): ListingServices {
  const projections = ctx.sessionProjections;
  if (projections === undefined || projections === null) {
    throw new SubagentControlError(
      'SUBAGENT_CONTROL_PROJECTIONS_UNAVAILABLE',
      'subagent listing needs the session projection registry',
    );
  }
  if (!projections.has(SUBAGENT_IDENTITY_KEY)) {
    throw new SubagentControlError(
      'SUBAGENT_CONTROL_PROJECTIONS_UNAVAILABLE',
      'the session projection registry has no subagent unit (call registerSubagentUnits)',
    );
  }
  if (ctx.sessions === undefined || ctx.sessions === null) {
    throw new SubagentControlError(
      'SUBAGENT_CONTROL_SESSION_STORE_UNAVAILABLE',
      'subagent listing needs the live session store',
    );
  }
  if (ctx.sessionQuery === undefined || ctx.sessionQuery === null) {
    throw new SubagentControlError(
      'SUBAGENT_CONTROL_QUERY_UNAVAILABLE',
      'subagent listing needs the session query service',
    );
  }
  return {
    projections,
    sessions: ctx.sessions,
    query: ctx.sessionQuery,
    cache: ctx.sessionProjectionCache ?? undefined,
  };
}
