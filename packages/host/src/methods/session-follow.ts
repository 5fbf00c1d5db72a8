import type { FollowSnapshot } from '@strand/protocol';
import { isReadOnlySession, SessionId } from '@strand/session';
import type { FollowHub } from '../follow/follow-hub.js';
import type { Outbound } from '../follow/outbound.js';
import type { HostLimits, ServedServices } from '../services.js';
import type { HandlerResult } from '../rpc/handler.js';

/**
 * `session.follow`: one exact observation with every projection → the opening snapshot (the RPC
 * result, written before any frame of its generation). Only an interactive follow of an ordinary
 * cold session promotes it to a live agent, and only after the snapshot is on the wire, by handing
 * a retained lease on the same prepared log to the agent port (no second read).
 */
export async function sessionFollow(
  services: ServedServices,
  hub: FollowHub,
  limits: HostLimits,
  params: { id: string; interactive?: boolean | undefined; window?: number | undefined },
  out: Outbound,
  signal: AbortSignal,
): Promise<HandlerResult<FollowSnapshot>> {
  const interactive = params.interactive === true;
  const observation = await services.query.observeSession(SessionId(params.id), {
    projectionMode: 'all',
    window: { last: params.window ?? limits.followWindow },
    // Promotion needs the whole prepared log behind the cut.
    requirePrepared: interactive,
    // A person opens this view: a whole-log fold leaves cache rows, the next open is a tail read.
    fillCache: true,
    signal,
  });
  let snapshot: FollowSnapshot;
  let promotion;
  try {
    snapshot = hub.start(observation, out);
    const agents = services.agents;
    const promotable =
      interactive &&
      agents !== undefined &&
      observation.source === 'cold' &&
      observation.header.origin !== 'subagent' &&
      // An imported session is read-only: no agent ever runs it (another harness owns it).
      !isReadOnlySession(observation.header) &&
      observation.hasPreparedSource;
    promotion = promotable ? { agents, lease: observation.retain() } : undefined;
  } finally {
    observation.dispose();
  }
  return {
    result: snapshot,
    afterSend: () => {
      hub.open(snapshot.followId);
      if (promotion !== undefined) {
        promotion.agents.promote(promotion.lease).then(
          // The interactive view keeps the agent attached until it unfollows or disconnects.
          (release) => hub.onStop(snapshot.followId, release),
          (error: unknown) => {
            // The follow stays a read-only view; the next interactive follow or prompt retries.
            // Another host owning the session is an expected outcome, not a failure.
            if ((error as { code?: unknown } | null)?.code !== 'SESSION_OWNED_ELSEWHERE')
              services.logger.error('promoting a followed session failed', {
                sessionId: params.id,
                error,
              });
          },
        );
      }
    },
  };
}
