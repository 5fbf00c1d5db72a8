import { openWorkAt, SessionLogOffset, type SessionEvent } from '@strand/session';

export interface ForkCut {
  /** The last closed-turn boundary: the start of the open turn, or the log's end when none is open. */
  readonly cut: SessionLogOffset;
  /** Turns that closed before `cut` (a fork without one would inherit no conversation). */
  readonly closedTurns: number;
}

/**
 * Where a forked child is cut from a live parent. The parent is normally mid-turn (its model is
 * calling `spawn_agent`), so the cut falls before that open turn: a child never inherits half a
 * turn, and `planFork` re-checks the boundary.
 */
export function lastClosedTurnCut(events: readonly SessionEvent[]): ForkCut {
  const cut = openWorkAt(events).openTurnSeq ?? events.length;
  let closedTurns = 0;
  for (let i = 0; i < cut; i++) if (events[i]!.type === 'turn/end') closedTurns++;
  return { cut: SessionLogOffset(cut), closedTurns };
}
