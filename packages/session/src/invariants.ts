import type { SessionEvent } from './event.js';
import { openWorkAt } from './turns.js';

export type LogViolation =
  | { readonly kind: 'seq-gap'; readonly index: number; readonly expected: number; readonly got: number }
  | { readonly kind: 'inherited-beyond-log'; readonly inheritedEventCount: number; readonly length: number }
  | { readonly kind: 'open-turn'; readonly turnStartSeq: number }
  | { readonly kind: 'mutable-event'; readonly seq: number };

/**
 * Invariants of a stored log, as code: contiguous seq from 0, an inherited prefix within the log,
 * frozen events, and (when `closedTurns`) no turn left open. Tests and the crash test run it.
 */
export function checkLogInvariants(
  events: readonly SessionEvent[],
  options: { inheritedEventCount?: number; closedTurns?: boolean } = {},
): LogViolation[] {
  const violations: LogViolation[] = [];
  events.forEach((e, index) => {
    if (e.seq !== index) violations.push({ kind: 'seq-gap', index, expected: index, got: e.seq });
    if (!Object.isFrozen(e) || (typeof e.data === 'object' && e.data !== null && !Object.isFrozen(e.data))) {
      violations.push({ kind: 'mutable-event', seq: e.seq });
    }
  });
  const inherited = options.inheritedEventCount ?? 0;
  if (inherited > events.length)
    violations.push({ kind: 'inherited-beyond-log', inheritedEventCount: inherited, length: events.length });
  if (options.closedTurns === true) {
    const open = openWorkAt(events);
    if (open.openTurnSeq !== undefined)
      violations.push({ kind: 'open-turn', turnStartSeq: open.openTurnSeq });
  }
  return violations;
}
