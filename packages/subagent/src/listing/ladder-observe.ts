import { defined } from '@strand/session';
import { isProjectionError } from '@strand/projection';
import { isSessionQueryError, type SessionObservation } from '@strand/query';
import { SUBAGENT_IDENTITY_KEY } from '../projection/identity-unit.js';
import { cancelled, isCancellation, throwIfCancelled } from './cancellation.js';
import type { Candidate } from './catalog.js';
import { CORRUPT, UNAVAILABLE, ownIdentity, type LadderResult } from './ladder-result.js';
import type { ListingQuery } from './types.js';
import { sameLifecycle } from './witness.js';

/**
 * A failed observation, classified. A projection unit that threw on the child's log is a data
 * verdict (`corrupt`, packages/subagent/README.md). Every read failure — damaged storage, a vanished session,
 * I/O, a live/cold race — is `unavailable` (the listing contract: the read side cannot tell causes apart).
 */
function failedRead(error: unknown): LadderResult {
  if (
    isSessionQueryError(error, 'SESSION_QUERY_CORRUPT_SESSION') &&
    isProjectionError(error.cause, 'PROJECTION_FAILED')
  ) {
    return CORRUPT;
  }
  return UNAVAILABLE;
}

/** The identity an observation carries, judged against the enumerated lifecycle and the exact cut. */
function judge(candidate: Candidate, observation: SessionObservation): LadderResult {
  if (!sameLifecycle(candidate.header, observation.header)) return CORRUPT;
  // Live wins (docs/architecture.md, rule 4): a child attached since enumeration is running now.
  const running = observation.source === 'live';
  const value = observation.projections?.values[SUBAGENT_IDENTITY_KEY];
  return ownIdentity(value, running, (seq) => seq >= observation.inheritedEventCount);
}

const NO_EVENTS = Object.freeze({ last: 0 });

/**
 * Rung 3: one body-bearing observation with every registered unit folded (`projectionMode:
 * 'all'` — the query knows no domain keys), compute and discard. The signal is checked before
 * the read and after it settles; a read that settles after abort is rejected as `CANCELLED`. The
 * observation is disposed on every path.
 */
export async function observedRung(
  candidate: Candidate,
  query: ListingQuery,
  signal: AbortSignal | undefined,
): Promise<LadderResult> {
  throwIfCancelled(signal, candidate.id);
  let observation: SessionObservation;
  try {
    // Compute and discard: projections only (no events: the query may then scan the log and skip
    // the data no unit reads), and no decode left behind in the preparation LRU.
    observation = await query.observeSession(candidate.id, {
      projectionMode: 'all',
      window: NO_EVENTS,
      retainPrepared: false,
      ...defined({ signal }),
    });
  } catch (error) {
    if (isCancellation(error, signal)) throw cancelled(error, candidate.id);
    return failedRead(error);
  }
  try {
    throwIfCancelled(signal, candidate.id);
    return judge(candidate, observation);
  } finally {
    observation.dispose();
  }
}
