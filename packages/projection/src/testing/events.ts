import { SessionId, type SessionEvent, type SessionHeader } from '@strand/session';
import { UNSEEDED, type FoldOrigin } from '../types.js';
import { toEvents } from './log-arbitrary.js';

/** A header for examples; `agentPreset` only when given (exactOptionalPropertyTypes). */
export function header(agentPreset?: string | null): SessionHeader {
  return {
    version: 1,
    id: SessionId('s1'),
    createdAt: 0,
    isSeeded: false,
    ...(agentPreset === undefined ? {} : { agentPreset }),
  };
}

/** A frozen log from `[type, data]` pairs, one ms apart from t=1001. */
export function log(...pairs: readonly (readonly [string, unknown])[]): SessionEvent[] {
  return toEvents(pairs.map(([type, data]) => ({ type, data })));
}

/** Folds a unit over events from init, returning the final view. */
export function foldView<S, V>(
  unit: { init(h: SessionHeader, origin: FoldOrigin): S; apply(s: S, e: SessionEvent): S; view(s: S): V },
  events: readonly SessionEvent[],
  h: SessionHeader = header(),
  origin: FoldOrigin = UNSEEDED,
): V {
  let state = unit.init(h, origin);
  for (const event of events) state = unit.apply(state, event);
  return unit.view(state);
}
