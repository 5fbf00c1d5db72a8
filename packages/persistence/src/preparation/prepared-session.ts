import type { SessionEvent, SessionHeader, SessionLogOffset } from '@strand/session';
import type { StoredLog } from '../types.js';

/**
 * A cold session decoded once and shared: the stored log plus the in-memory crash-repair closers
 * (what a repairing load would write), frozen. Nobody may mutate it; publication hands it to the
 * live store, which writes the closers.
 */
export interface PreparedSession {
  readonly header: SessionHeader;
  readonly inheritedEventCount: SessionLogOffset;
  readonly incarnation: string;
  /** The persisted revision this preparation was decoded from. */
  readonly revision: string;
  readonly storedBytes: number;
  /** Stored events followed by `repairs`: the log as a repairing load would leave it. */
  readonly events: readonly SessionEvent[];
  /** How many of `events` are stored; the rest are repairs not yet written. */
  readonly storedEventCount: number;
  readonly repairs: readonly SessionEvent[];
}

export function prepare(log: StoredLog): PreparedSession {
  return Object.freeze({
    header: log.header,
    inheritedEventCount: log.inheritedEventCount,
    incarnation: log.incarnation,
    revision: log.revision,
    storedBytes: log.storedBytes,
    events: Object.freeze(log.repairs.length === 0 ? log.events : [...log.events, ...log.repairs]),
    storedEventCount: log.events.length,
    repairs: log.repairs,
  });
}
