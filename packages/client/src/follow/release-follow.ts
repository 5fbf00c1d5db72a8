import type { FollowTransport } from './follow-transport.js';

/**
 * Tells the host a follow id is no longer used (`session.unfollow`), best effort: only the socket
 * that opened a follow knows its id, so on any other socket there is nothing to release.
 */
export async function releaseFollow(
  connection: FollowTransport,
  followId: string,
  epoch: number,
): Promise<void> {
  if (epoch !== connection.epoch || connection.state !== 'open') return;
  try {
    await connection.call('session.unfollow', { followId });
  } catch {
    // HOST_FOLLOW_NOT_FOUND (the host already ended it, e.g. with a resync) or a disconnect: either
    // way the follow is gone, which is all we wanted.
  }
}
