import type { SubagentIdentityProjection } from '../projection/projection-types.js';
import { isSubagentIdentity } from '../projection/identity-shape.js';

/**
 * What the value ladder computed for one child. The projection system has no failure channel, so
 * `none` ("computed to nothing": the null sentinel, an absent key, or an identity that is not the
 * child's own) is a value; `corrupt` and `unavailable` are the list's own verdicts on a failed
 * computation and a failed read.
 */
export type LadderResult =
  | { readonly kind: 'identity'; readonly identity: SubagentIdentityProjection; readonly running: boolean }
  | { readonly kind: 'none'; readonly running: boolean }
  /** The projection computation failed (a unit threw), or the observation is another lifecycle. */
  | { readonly kind: 'corrupt' }
  /** The cold read failed; the next listing retries it. */
  | { readonly kind: 'unavailable' };

export const CORRUPT: LadderResult = Object.freeze({ kind: 'corrupt' });
export const UNAVAILABLE: LadderResult = Object.freeze({ kind: 'unavailable' });

/**
 * The identity in a snapshot value when it is the child's own (`isOwn` checks its seq against
 * the exact inherited cut); `none` for null, an absent key, or an ancestor's identity.
 */
export function ownIdentity(value: unknown, running: boolean, isOwn: (seq: number) => boolean): LadderResult {
  if (!isSubagentIdentity(value) || !isOwn(value.seq)) return { kind: 'none', running };
  return { kind: 'identity', identity: value, running };
}
