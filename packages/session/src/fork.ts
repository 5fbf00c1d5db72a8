import { SessionError } from './errors.js';
import type { SessionEvent } from './event.js';
import {
  parseSessionHeader,
  SESSION_HEADER_VERSION,
  type NewSessionHeader,
  type SessionHeader,
} from './header.js';
import { SessionLogOffset } from './ids.js';
import { isClosedTurnBoundary } from './turns.js';

export interface ForkPlan {
  readonly header: SessionHeader;
  /** The copied prefix; every log is self-contained. */
  readonly events: readonly SessionEvent[];
  readonly inheritedEventCount: SessionLogOffset;
}

/**
 * Plans a child seeded with `parentEvents[0, cut)`. The cut must be a closed-turn boundary: a
 * child never inherits half a turn. A cut of 0 makes an ordinary, unseeded session.
 */
export function planFork(
  parentId: SessionHeader['id'],
  parentEvents: readonly SessionEvent[],
  cut: number,
  child: NewSessionHeader,
): ForkPlan {
  if (!Number.isSafeInteger(cut) || cut < 0 || cut > parentEvents.length) {
    throw new SessionError(
      'SESSION_FORK_CUT_INVALID',
      `fork cut ${cut} is outside the parent log (0..${parentEvents.length})`,
    );
  }
  const offset = SessionLogOffset(cut);
  if (!isClosedTurnBoundary(parentEvents, offset)) {
    throw new SessionError('SESSION_FORK_CUT_INVALID', `fork cut ${cut} falls inside an open turn`);
  }
  const header = parseSessionHeader({
    ...child,
    version: SESSION_HEADER_VERSION,
    createdAt: child.createdAt ?? Date.now(),
    isSeeded: cut > 0,
    ...(cut > 0 ? { forkedFrom: parentId } : {}),
  });
  return { header, events: parentEvents.slice(0, cut), inheritedEventCount: offset };
}
