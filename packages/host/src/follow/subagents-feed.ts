import type { SessionHeader, SessionId } from '@strand/session';
import type { FollowedLookup } from './follower-queue.js';
import { subagentAncestors } from './subagent-ancestors.js';

/**
 * `follow.subagents`: a `subagent.list` row of the followed session appeared or changed activity —
 * a subagent child attached to the store (spawned, or resumed) or detached (settled); `running`
 * in a listing means exactly "attached here". It is told from the store's change, which comes
 * after the durable write it reports (a child is created durably before it attaches, flushed
 * before it detaches), so a `subagent.list` the client sends on receipt sees the change. A deeper
 * descendant's change is told up the chain while the sessions between are live here (a cold
 * ancestor's header would cost a read).
 */
export class SubagentsFeed {
  readonly #followed: FollowedLookup;
  readonly #liveHeader: (id: SessionId) => SessionHeader | undefined;

  constructor(followed: FollowedLookup, liveHeader: (id: SessionId) => SessionHeader | undefined) {
    this.#followed = followed;
    this.#liveHeader = liveHeader;
  }

  /** `child` attached here or detached. */
  changed(child: SessionHeader): void {
    for (const id of subagentAncestors(child, this.#liveHeader))
      for (const follower of this.#followed(id)?.followers ?? [])
        follower.push(follower.frame('follow.subagents', ''));
  }
}
