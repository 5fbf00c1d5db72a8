import { defined } from '@strand/session';
import { isSessionQueryError } from '@strand/query';
import { SubagentControlError } from '../errors.js';
import { cancelled, throwIfCancelled } from './cancellation.js';
import { SubagentCatalog } from './catalog.js';
import type { ListingServices } from './types.js';

/**
 * Enumerates the corpus once (`sessionQuery.listSessions`, header facts only) and indexes its
 * subagent sessions. A corpus failure fails the whole enumeration; cancellation is `CANCELLED`.
 */
export async function enumerateSubagents(
  services: ListingServices,
  signal: AbortSignal | undefined,
): Promise<SubagentCatalog> {
  throwIfCancelled(signal);
  let rows;
  try {
    rows = await services.query.listSessions(defined({ signal }));
  } catch (error) {
    if (signal?.aborted === true || isSessionQueryError(error, 'SESSION_QUERY_ABORTED'))
      throw cancelled(error);
    throw new SubagentControlError(
      'SUBAGENT_CONTROL_QUERY_FAILED',
      'the session corpus could not be listed',
      { cause: error },
    );
  }
  throwIfCancelled(signal);
  return new SubagentCatalog(rows, services.sessions);
}
