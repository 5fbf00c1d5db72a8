import type { ProjectionUnit } from '../../types.js';
import { isRecord } from '../read.js';

/** A model route as `model/selection` and `request/header` record it. */
export interface ModelRoute {
  readonly provider: string;
  readonly model: string;
  readonly reasoningEffort?: string;
}

export interface ModelSelectionState {
  /** The route the most recent `request/header` says a model request actually used. */
  readonly lastRequest: ModelRoute | null;
  /** A person's `model/selection` no request has consumed yet: chosen, not yet used. */
  readonly pending: ModelRoute | null;
  /** Between a `turn/start` and its `turn/end`. */
  readonly turnOpen: boolean;
  /**
   * `pending` was chosen while a turn was open: that turn keeps the model it started with, so its
   * requests leave `pending` alone; the turn's end makes it due (the next turn's request consumes it).
   */
  readonly heldForNextTurn: boolean;
}

/**
 * `null` when the log records neither a request nor a selection (or only corrupt ones). Otherwise
 * both facts, so a client can show "answered by X" and "next: Y" without guessing; the route the
 * next turn is expected to use is `pending ?? lastRequest`.
 */
export type ModelSelectionView = {
  readonly lastRequest: ModelRoute | null;
  readonly pending: ModelRoute | null;
} | null;

declare module '../../types.js' {
  interface ProjectionStateMap {
    modelSelection: ModelSelectionState;
  }
  interface ProjectionViewMap {
    modelSelection: ModelSelectionView;
  }
}

export const MODEL_SELECTION_READS: readonly string[] = ['model/selection', 'request/header'];

const INITIAL: ModelSelectionState = Object.freeze({
  lastRequest: null,
  pending: null,
  turnOpen: false,
  heldForNextTurn: false,
});

/** Copies only the route's own fields; anything malformed is `null` (corrupt folds to nothing). */
function routeOf(data: unknown): ModelRoute | null {
  if (!isRecord(data) || typeof data.provider !== 'string' || typeof data.model !== 'string') return null;
  if (data.reasoningEffort === undefined) return { provider: data.provider, model: data.model };
  if (typeof data.reasoningEffort !== 'string') return null;
  return { provider: data.provider, model: data.model, reasoningEffort: data.reasoningEffort };
}

function sameRoute(a: ModelRoute | null, b: ModelRoute | null): boolean {
  if (a === null || b === null) return a === b;
  return a.provider === b.provider && a.model === b.model && a.reasoningEffort === b.reasoningEffort;
}

export const modelSelectionUnit: ProjectionUnit<ModelSelectionState, ModelSelectionView, 'modelSelection'> = {
  key: 'modelSelection',
  stateVersion: 2,
  // `turn/start` and `turn/end` are read by type only.
  dataReads: MODEL_SELECTION_READS,
  init: () => INITIAL,
  apply(state, event) {
    switch (event.type) {
      case 'turn/start':
        return state.turnOpen && !state.heldForNextTurn
          ? state
          : { ...state, turnOpen: true, heldForNextTurn: false };
      case 'turn/end':
        return !state.turnOpen && !state.heldForNextTurn
          ? state
          : { ...state, turnOpen: false, heldForNextTurn: false };
      case 'model/selection': {
        const pending = routeOf(event.data);
        return sameRoute(pending, state.pending) && state.heldForNextTurn === state.turnOpen
          ? state
          : { ...state, pending, heldForNextTurn: state.turnOpen };
      }
      case 'request/header': {
        const lastRequest = routeOf(event.data);
        // A turn keeps the model it started with: a selection made during it waits for the next turn.
        if (state.heldForNextTurn)
          return sameRoute(lastRequest, state.lastRequest) ? state : { ...state, lastRequest };
        // Otherwise a request consumes any earlier selection, whatever route it ended up using.
        return state.pending === null && sameRoute(lastRequest, state.lastRequest)
          ? state
          : { ...state, lastRequest, pending: null };
      }
      default:
        return state;
    }
  },
  view: (state) =>
    state.lastRequest === null && state.pending === null
      ? null
      : { lastRequest: state.lastRequest, pending: state.pending },
};
