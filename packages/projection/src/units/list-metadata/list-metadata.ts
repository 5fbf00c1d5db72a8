import type { ProjectionUnit } from '../../types.js';
import { isRecord } from '../read.js';

export interface ListMetadataState {
  /** True until the first `turn/start`. */
  readonly blank: boolean;
  /** `time` (integer ms) of the last `user/message` written by a human; `null` before one. */
  readonly lastPromptAt: number | null;
}
export type ListMetadataView = ListMetadataState;

declare module '../../types.js' {
  interface ProjectionStateMap {
    listMetadata: ListMetadataState;
  }
  interface ProjectionViewMap {
    listMetadata: ListMetadataView;
  }
}

export const LIST_METADATA_READS: readonly string[] = ['turn/start', 'user/message'];

const INITIAL: ListMetadataState = Object.freeze({ blank: true, lastPromptAt: null });

/** What a session list needs to sort and filter: blankness and recency of the last human prompt. */
export const listMetadataUnit: ProjectionUnit<ListMetadataState, ListMetadataView, 'listMetadata'> = {
  key: 'listMetadata',
  stateVersion: 1,
  // A turn's start matters, not its data.
  dataReads: ['user/message'],
  init: () => INITIAL,
  apply(state, event) {
    switch (event.type) {
      case 'turn/start':
        return state.blank ? { blank: false, lastPromptAt: state.lastPromptAt } : state;
      case 'user/message': {
        // Agent- and system-authored messages (a parent's message to a child) are not prompts,
        // nor is a `session/command` (a command run in the harness), which this unit never reads.
        if (!isRecord(event.data) || event.data.author !== 'human' || state.lastPromptAt === event.time)
          return state;
        return { blank: state.blank, lastPromptAt: event.time };
      }
      default:
        return state;
    }
  },
  view: (state) => state,
};

/**
 * When a session was last active — the `session.list` order's key, the web list's and the list
 * index's: the last human prompt (`lastPromptAt` of a `listMetadata` view, which may be unknown or
 * of an unexpected shape where it arrived over the wire), else the header's `createdAt` (ms).
 * Never a guess (not the last event's time, not "now"): it changes only when a prompt is written.
 */
export function lastActivityAt(createdAt: number, listMetadata: unknown): number {
  const lastPromptAt =
    typeof listMetadata === 'object' && listMetadata !== null
      ? (listMetadata as { lastPromptAt?: unknown }).lastPromptAt
      : undefined;
  return typeof lastPromptAt === 'number' && Number.isFinite(lastPromptAt) ? lastPromptAt : createdAt;
}
