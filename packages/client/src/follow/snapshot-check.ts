import type { FollowSnapshot } from '@strand/protocol';

/**
 * Why a `session.follow` result may not open a generation of `sessionId`, or `null` when it may.
 * Its shape (events exactly `[firstSeq, cursor)`, the baseline at `cursor − 1`) was checked where
 * it entered, by the connection with the protocol's snapshot schema; what remains is that its
 * header names the followed session.
 */
export function snapshotSessionProblem(snapshot: FollowSnapshot, sessionId: string): string | null {
  return snapshot.header.id === sessionId
    ? null
    : `snapshot of ${sessionId}: expected header id ${sessionId}, got ${snapshot.header.id}`;
}
