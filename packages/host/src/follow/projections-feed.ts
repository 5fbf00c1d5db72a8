import type { SessionId } from '@strand/session';
import type { FollowedLookup } from './follower-queue.js';

/**
 * `follow.projection`: a value changed at `seq`, from a registry that folds durable batches only
 * (or a remote tail's fold of what it read). The key and value are serialized once per session
 * and wrapped per follower.
 */
export class ProjectionsFeed {
  readonly #followed: FollowedLookup;

  constructor(followed: FollowedLookup) {
    this.#followed = followed;
  }

  changed(sessionId: SessionId, key: string, value: unknown, seq: number): void {
    const followed = this.#followed(sessionId);
    if (followed === undefined) return;
    const fields = `,"key":${JSON.stringify(key)},"value":${JSON.stringify(value) ?? 'null'},"seq":${seq}`;
    for (const follower of followed.followers) follower.push(follower.frame('follow.projection', fields));
  }
}
