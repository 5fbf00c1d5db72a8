import type { SessionOwnership } from '@strand/agent';
import type { AppendFeed, SessionLeases } from '@strand/postgres';
import { SessionId } from '@strand/session';
import type { CoordinationPort } from '@strand/host';

/** The host's view of the database's leases and append feed. */
export function coordinationPort(leases: SessionLeases, feed: AppendFeed): CoordinationPort {
  return {
    ownedElsewhere: () => leases.ownedElsewhere(),
    acquire: (id) => leases.acquire(id),
    release: (id) => leases.release(id),
    watchAppends(id, listener) {
      return feed.subscribe(id, (signal) =>
        listener(
          signal.kind === 'resync'
            ? signal
            : {
                kind: 'append',
                incarnation: signal.notice.incarnation,
                from: signal.notice.from,
                count: signal.notice.count,
              },
        ),
      );
    },
  };
}

/** The agent controller's ownership: one lease per attached session, lost leases stop agents. */
export function leaseOwnership(leases: SessionLeases): SessionOwnership {
  return {
    acquire: (id) => leases.acquire(id),
    release: (id) => leases.release(id),
    onLost: (listener) => leases.onLost((loss) => listener(SessionId(loss.sessionId))),
  };
}
