import type { ProjectionUnit } from '../../types.js';
import { isRecord } from '../read.js';

/** The session title, or `null` before any title (or after a corrupt `session/title`). */
export type TitleState = string | null;
export type TitleView = string | null;

declare module '../../types.js' {
  interface ProjectionStateMap {
    title: TitleState;
  }
  interface ProjectionViewMap {
    title: TitleView;
  }
}

export const TITLE_READS: readonly string[] = ['session/title'];

/** Last-wins over `session/title`; a corrupt one resets to `null` (it cannot vouch for the old title). */
export const titleUnit: ProjectionUnit<TitleState, TitleView, 'title'> = {
  key: 'title',
  stateVersion: 1,
  dataReads: TITLE_READS,
  init: () => null,
  apply(state, event) {
    if (event.type !== 'session/title') return state;
    const data = event.data;
    // Strings compare by value, so an identical title returns the same state.
    return isRecord(data) && typeof data.title === 'string' ? data.title : null;
  },
  view: (state) => state,
};
