import type { ProjectionUnitFor } from '@strand/projection';
import { SUBAGENT_DESCRIPTOR_EVENT } from '../descriptor.js';
import { isSubagentTiming } from './identity-shape.js';
import type { SubagentTimingState } from './projection-types.js';

export const SUBAGENT_TIMING_KEY = 'subagentTiming';

const INITIAL: SubagentTimingState = Object.freeze({
  counting: false,
  settledMs: 0,
  settledTurns: 0,
  since: null,
  through: null,
});

/** The state after closing the open turn (started at `since`) at `end` ms; it counts only once the descriptor was seen. */
function settled(state: SubagentTimingState, since: number, end: number): SubagentTimingState {
  if (!state.counting) return { counting: false, settledMs: 0, settledTurns: 0, since: null, through: null };
  return {
    counting: true,
    settledMs: state.settledMs + Math.max(0, end - since),
    settledTurns: state.settledTurns + 1,
    since: null,
    through: null,
  };
}

/**
 * The `subagentTiming` unit: active time of the turns a subagent ran itself. Every
 * `subagent/descriptor` (whatever its payload — validity is the identity unit's business) restarts
 * the count, so turns before the last descriptor — an ancestor's turns in a fork prefix — never
 * count. The rules are in `README.md` beside this file.
 */
export const subagentTimingUnit: ProjectionUnitFor<'subagentTiming'> = {
  key: SUBAGENT_TIMING_KEY,
  stateVersion: 1,
  // Every event's time counts, no event's data: a descriptor restarts the count whatever it holds.
  dataReads: [],
  init: () => INITIAL,
  apply(state, event) {
    const { since, through } = state;
    switch (event.type) {
      case SUBAGENT_DESCRIPTOR_EVENT:
        return {
          counting: true,
          settledMs: 0,
          settledTurns: 0,
          since,
          through: since === null || through === null ? null : Math.max(through, event.time),
        };
      case 'turn/start': {
        // A turn that never ended (no repair closer) is bounded by the last event folded inside it.
        const base = since === null || through === null ? state : settled(state, since, through);
        return {
          counting: base.counting,
          settledMs: base.settledMs,
          settledTurns: base.settledTurns,
          since: event.time,
          through: event.time,
        };
      }
      case 'turn/end':
        return since === null || through === null
          ? state
          : settled(state, since, Math.max(through, event.time));
      default:
        if (since === null || through === null || !state.counting || event.time <= through) return state;
        return {
          counting: true,
          settledMs: state.settledMs,
          settledTurns: state.settledTurns,
          since,
          through: event.time,
        };
    }
  },
  view(state) {
    const { since, through } = state;
    // Before the descriptor the open turn is tracked (it may be the one the descriptor lands in) but not shown.
    const active = state.counting && since !== null && through !== null ? { since, through } : null;
    const view = { settledMs: state.settledMs, settledTurns: state.settledTurns, active };
    // Only a poisoned checkpoint row can fail this; throwing makes the cache treat it as a miss.
    if (
      typeof state.counting !== 'boolean' ||
      !isSubagentTiming(view) ||
      (since === null) !== (through === null)
    ) {
      throw new TypeError('subagentTiming state is malformed');
    }
    return view;
  },
};
