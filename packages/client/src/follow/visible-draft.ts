import type { FollowDraftParams } from '@strand/protocol';
import type { ShownGeneration } from './follow-view.js';

/** What a viewer shows of the running step before its `assistant/message` arrives. */
export interface FollowDraft {
  /** The seq of the step's `step/start`: the draft belongs after it. */
  readonly step: number;
  /** The step's whole text so far. */
  readonly text: string;
}

/** Events that settle a step's draft: its message is the authority, or the step/turn closed without one. */
const SETTLING = new Set(['assistant/message', 'step/end', 'turn/end']);

export type DraftVerdict =
  /** Show it. */
  | { readonly kind: 'show'; readonly draft: FollowDraft }
  /** Not yet: its step/start has not been applied here (frames and drafts race; keep it). */
  | { readonly kind: 'wait' }
  /** Never again: another generation, or the log settled its step. */
  | { readonly kind: 'drop' };

/**
 * Whether `draft` may be shown beside the generation `shown`. Pure: the transient state lives in
 * `FollowDrafts`. A draft of another follow or generation is dropped (a resync or reconnect
 * starts without one), and so is every draft of a session that stopped on a failed write; one
 * whose step already has a settling event is dropped, so the message swaps in and the draft can
 * never come back.
 */
export function judgeDraft(draft: FollowDraftParams, shown: ShownGeneration | null): DraftVerdict {
  if (shown === null || shown.followId !== draft.followId || shown.generation !== draft.generation)
    return { kind: 'drop' };
  // A stopped session's step will never be written: its text so far is not saved, so not shown.
  if (shown.stopped !== undefined) return { kind: 'drop' };
  if (shown.cursor <= draft.step) return { kind: 'wait' };
  // Events are exactly [firstSeq, cursor), contiguous: look only after the step/start.
  for (let index = Math.max(0, draft.step + 1 - shown.firstSeq); index < shown.events.length; index++) {
    const event = shown.events[index];
    if (event !== undefined && SETTLING.has(event.type)) return { kind: 'drop' };
  }
  return { kind: 'show', draft: { step: draft.step, text: draft.text } };
}
