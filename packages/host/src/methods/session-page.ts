import type { WireEvent } from '@strand/protocol';
import type { ObservationWindow } from '@strand/query';
import { SessionId } from '@strand/session';
import type { HostServices } from '../services.js';

/**
 * `session.page`: older history (`beforeSeq`) or gap repair (`fromSeq`..`toSeq`) from one exact
 * observation, with no projection work. Never activates an agent.
 */
export async function sessionPage(
  services: HostServices,
  params: {
    id: string;
    beforeSeq?: number | undefined;
    fromSeq?: number | undefined;
    toSeq?: number | undefined;
    limit?: number | undefined;
  },
  signal: AbortSignal,
): Promise<{ firstSeq: number; events: readonly WireEvent[]; cursor: number }> {
  const limit = params.limit ?? 200;
  let window: ObservationWindow;
  if (params.beforeSeq !== undefined)
    window = { fromSeq: Math.max(0, params.beforeSeq - limit), toSeq: params.beforeSeq };
  else {
    const from = params.fromSeq ?? 0;
    window = { fromSeq: from, toSeq: Math.min(params.toSeq ?? from + limit, from + limit) };
  }
  const observation = await services.query.observeSession(SessionId(params.id), {
    projectionMode: 'none',
    window,
    signal,
  });
  try {
    return { firstSeq: observation.firstSeq, events: observation.events, cursor: observation.cursor };
  } finally {
    observation.dispose();
  }
}
