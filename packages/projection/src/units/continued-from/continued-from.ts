import type { ProjectionUnit } from '../../types.js';
import { isRecord } from '../read.js';

/**
 * Where a session continues a Strand export (`session/continued-from`): the origin session, the
 * origin's cut the export held, the harness that continued it, and the seq of the event (the
 * session's events before it are the exported prefix). `null` for any other session.
 */
export type ContinuedFromState = {
  readonly session: string;
  readonly cut: number;
  readonly harness: string;
  readonly seq: number;
} | null;
export type ContinuedFromView = ContinuedFromState;

declare module '../../types.js' {
  interface ProjectionStateMap {
    continuedFrom: ContinuedFromState;
  }
  interface ProjectionViewMap {
    continuedFrom: ContinuedFromView;
  }
}

export const CONTINUED_FROM_READS: readonly string[] = ['session/continued-from'];

/**
 * The first `session/continued-from` of the log, or `null`. An importer writes one per session
 * (a file continues one export); a later one, or one whose data is not of its shape, changes nothing.
 */
export const continuedFromUnit: ProjectionUnit<ContinuedFromState, ContinuedFromView, 'continuedFrom'> = {
  key: 'continuedFrom',
  stateVersion: 1,
  dataReads: CONTINUED_FROM_READS,
  init: () => null,
  apply(state, event) {
    if (state !== null || event.type !== 'session/continued-from') return state;
    const data = event.data;
    if (!isRecord(data)) return state;
    const { session, cut, harness } = data;
    if (typeof session !== 'string' || typeof harness !== 'string') return state;
    if (!Number.isSafeInteger(cut) || (cut as number) < 0) return state;
    return { session, cut: cut as number, harness, seq: event.seq };
  },
  view: (state) => state,
};
