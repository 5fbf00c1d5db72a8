import { isProjectionError } from '@strand/projection';
import { SessionLogOffset, type Session } from '@strand/session';
import { SUBAGENT_IDENTITY_KEY } from '../projection/identity-unit.js';
import { isSubagentIdentity } from '../projection/identity-shape.js';
import type { SubagentIdentityProjection } from '../projection/projection-types.js';
import type { Candidate } from './catalog.js';
import { CORRUPT, UNAVAILABLE, ownIdentity, type LadderResult } from './ladder-result.js';
import type { ListingCache, ListingProjections, ListingServices } from './types.js';

const IDENTITY_KEYS = [SUBAGENT_IDENTITY_KEY] as const;
const UNSEEDED_CUT = SessionLogOffset(0);

/**
 * Rung 1: a live child's identity from the registry's watermark cache — synchronous, zero log
 * reads. The own-suffix check is `Session.isOwnSeq`. A fold that failed (a unit threw) is a data
 * verdict, `corrupt`; a session the registry does not track is a composition fault, not a
 * verdict on the child, so that row is `unavailable`.
 */
export function liveRung(session: Session, projections: ListingProjections): LadderResult {
  let value: unknown;
  try {
    value = projections.snapshot(session, IDENTITY_KEYS).values[SUBAGENT_IDENTITY_KEY];
  } catch (error) {
    return isProjectionError(error, 'PROJECTION_FAILED') ? CORRUPT : UNAVAILABLE;
  }
  return ownIdentity(value, true, (seq) => session.isOwnSeq(seq));
}

/**
 * Rung 2: an unseeded cold child's identity from a cache row at inherited cut 0, where every valid
 * seq is the child's own, so no seq gate is needed. Anything else — no row, the null sentinel, an
 * absent key, any fault (a poisoned row whose `view` throws included) — is `undefined`: fall
 * through to the authoritative read. The cache is derived data; it never produces a verdict.
 */
export function cachedRung(
  candidate: Candidate,
  cache: ListingCache,
): SubagentIdentityProjection | undefined {
  if (candidate.incarnation === undefined) return undefined;
  try {
    const snapshot = cache.cachedSnapshot(
      { header: candidate.header, incarnation: candidate.incarnation },
      UNSEEDED_CUT,
      IDENTITY_KEYS,
    );
    const value = snapshot?.values[SUBAGENT_IDENTITY_KEY];
    return isSubagentIdentity(value) ? value : undefined;
  } catch {
    // Derived data failing to read is a miss, never an error: rung 3 decides.
    return undefined;
  }
}

/**
 * Rungs 1 and 2, which read no log: the result, or `undefined` when the child needs rung 3. A
 * seeded child skips rung 2 — its header cannot name the exact inherited cut the cache identity
 * needs without a body read.
 */
export function resolveWithoutReading(
  candidate: Candidate,
  services: ListingServices,
): LadderResult | undefined {
  // Live preference is re-checked here, after the await that followed enumeration: a child
  // detached since is cold now and takes the cold rungs (docs/architecture.md, rule 4: live wins).
  const live = candidate.live;
  if (live !== undefined && services.sessions.get(candidate.id) === live)
    return liveRung(live, services.projections);
  if (services.cache === undefined || candidate.header.isSeeded) return undefined;
  const identity = cachedRung(candidate, services.cache);
  return identity === undefined ? undefined : { kind: 'identity', identity, running: false };
}
