import { describeIssues, followSnapshotSchema, type FollowSnapshot } from '@strand/protocol';

export type SnapshotCheck =
  | { readonly kind: 'valid'; readonly snapshot: FollowSnapshot }
  | { readonly kind: 'invalid'; readonly reason: string };

/**
 * Validates a `session.follow` result before its generation may replace the shown one: the
 * protocol's snapshot schema (its shape, events exactly `[firstSeq, cursor)`, the baseline at
 * `cursor − 1`), and a header naming the followed session. The snapshot returned is the value
 * received — checked, not copied — so a newer host's extra fields stay.
 */
export function checkSnapshot(value: unknown, sessionId: string): SnapshotCheck {
  const invalid = (reason: string): SnapshotCheck => ({
    kind: 'invalid',
    reason: `snapshot of ${sessionId}: ${reason}`,
  });
  const parsed = followSnapshotSchema.safeParse(value);
  if (!parsed.success) return invalid(describeIssues(parsed.error, '(snapshot)'));
  const snapshot = value as FollowSnapshot;
  if (snapshot.header.id !== sessionId)
    return invalid(`expected header id ${sessionId}, got ${snapshot.header.id}`);
  return { kind: 'valid', snapshot };
}
