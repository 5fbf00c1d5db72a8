import type { FollowSnapshot } from '@strand/protocol';
import { contiguityProblem, isRecord, isSeq } from './wire-checks.js';

export type SnapshotCheck =
  | { readonly kind: 'valid'; readonly snapshot: FollowSnapshot }
  | { readonly kind: 'invalid'; readonly reason: string };

/**
 * Validates a `session.follow` result before its generation may replace the shown one: the header
 * names the followed session, the events are exactly `[firstSeq, cursor)`, and the baseline is
 * the projection cut at `cursor − 1`.
 */
export function checkSnapshot(value: unknown, sessionId: string): SnapshotCheck {
  const invalid = (reason: string): SnapshotCheck => ({
    kind: 'invalid',
    reason: `snapshot of ${sessionId}: ${reason}`,
  });
  if (!isRecord(value)) return invalid('not an object');
  if (typeof value.followId !== 'string') return invalid('followId is not a string');
  if (typeof value.generation !== 'number' || !Number.isInteger(value.generation))
    return invalid('generation is not an integer');
  const header = value.header;
  if (!isRecord(header) || typeof header.id !== 'string' || typeof header.createdAt !== 'number') {
    return invalid('header is malformed');
  }
  if (header.id !== sessionId) return invalid(`expected header id ${sessionId}, got ${header.id}`);
  if (!isSeq(value.inheritedEventCount)) return invalid('inheritedEventCount is not a count');
  if (!isSeq(value.cursor) || !isSeq(value.firstSeq)) return invalid('cursor or firstSeq is not a count');
  if (value.firstSeq > value.cursor)
    return invalid(`firstSeq ${value.firstSeq} is beyond cursor ${value.cursor}`);
  if (!Array.isArray(value.events)) return invalid('events is not an array');
  const expectedLength = value.cursor - value.firstSeq;
  if (value.events.length !== expectedLength) {
    return invalid(
      `expected ${expectedLength} events to reach cursor ${value.cursor}, got ${value.events.length}`,
    );
  }
  const problem = contiguityProblem(value.events, value.firstSeq);
  if (problem !== null) return invalid(problem);
  const baseline = value.baseline;
  if (!isRecord(baseline) || !isRecord(baseline.values)) return invalid('baseline is malformed');
  if (baseline.asOfSeq !== value.cursor - 1) {
    return invalid(`expected baseline asOfSeq ${value.cursor - 1}, got ${String(baseline.asOfSeq)}`);
  }
  if (typeof value.live !== 'boolean' || typeof value.busy !== 'boolean')
    return invalid('live or busy is not a boolean');
  return { kind: 'valid', snapshot: value as unknown as FollowSnapshot };
}
