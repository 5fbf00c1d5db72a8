import type { SessionEvent } from '@strand/session';
import type { AnyProjectionUnit } from './types.js';

export type UnitFoldResult =
  /** `lastChange` is the index (in `events`) of the last event that changed the state, −1 if none did. */
  | { readonly kind: 'folded'; readonly state: unknown; readonly lastChange: number }
  /** The unit threw (against its contract) on `events[index]`; `cause` is what it threw. */
  | { readonly kind: 'threw'; readonly index: number; readonly cause: unknown };

/**
 * Folds `events[start, end)` into `state` with one unit — the inner loop of every fold, live or cold.
 * Unit-major (one unit over many events) keeps each loop's call site monomorphic, which is what
 * makes the ≥ 1M events/s target cheap. It never throws: a throwing unit comes back tagged.
 */
export function foldUnit(
  unit: AnyProjectionUnit,
  state: unknown,
  events: readonly SessionEvent[],
  start = 0,
  end = events.length,
): UnitFoldResult {
  let index = start;
  let lastChange = -1;
  let current: unknown = state;
  try {
    for (; index < end; index++) {
      const next: unknown = unit.apply(current, events[index]!);
      if (next !== current) {
        current = next;
        lastChange = index;
      }
    }
  } catch (cause) {
    return { kind: 'threw', index, cause };
  }
  return { kind: 'folded', state: current, lastChange };
}
