import { FOLLOW_DRAFT_METHOD, FollowDraftParamsSchema, type FollowDraftParams } from '@strand/protocol';
import { Listeners, reportToConsole, type ListenerErrorReporter } from '../listeners.js';
import type { FollowTransport } from './follow-transport.js';
import type { FollowView } from './follow-view.js';
import { judgeDraft, type FollowDraft } from './visible-draft.js';

/** The follower side `FollowDrafts` reads: its view and its changes. */
export interface DraftSource {
  readonly view: FollowView;
  subscribe(listener: (view: FollowView) => void): () => void;
}

/**
 * The running step's draft for one follower (`follow.draft`), kept beside it and never in the
 * follower's events or the projection store: a draft is transient and may vanish at any time.
 * It is dropped when the step's `assistant/message` (or its closing) is applied, when another
 * generation is shown, and when the connection changes state (a reconnect re-follows). A draft
 * that arrives before its step/start was applied waits for it. Malformed frames are ignored.
 */
export class FollowDrafts {
  readonly #follower: DraftSource;
  readonly #listeners: Listeners<FollowDraft | null>;
  readonly #detach: (() => void)[];
  #latest: FollowDraftParams | null = null;
  #shown: FollowDraft | null = null;

  constructor(
    connection: Pick<FollowTransport, 'onNotification' | 'onStateChange'>,
    follower: DraftSource,
    report: ListenerErrorReporter = reportToConsole,
  ) {
    this.#follower = follower;
    this.#listeners = new Listeners(report);
    this.#detach = [
      connection.onNotification((notification) => {
        if (notification.method !== FOLLOW_DRAFT_METHOD) return;
        const parsed = FollowDraftParamsSchema.safeParse(notification.params);
        if (!parsed.success) return;
        this.#latest = parsed.data;
        this.#update();
      }),
      connection.onStateChange(() => {
        this.#latest = null;
        this.#update();
      }),
      follower.subscribe(() => this.#update()),
    ];
  }

  /** The draft to show now, or null. */
  get draft(): FollowDraft | null {
    return this.#shown;
  }

  subscribe(listener: (draft: FollowDraft | null) => void): () => void {
    return this.#listeners.add(listener);
  }

  close(): void {
    for (const detach of this.#detach.splice(0)) detach();
    this.#latest = null;
    this.#shown = null;
  }

  #update(): void {
    let next: FollowDraft | null = null;
    if (this.#latest !== null) {
      const verdict = judgeDraft(this.#latest, this.#follower.view.shown);
      if (verdict.kind === 'drop') this.#latest = null;
      else if (verdict.kind === 'show') next = verdict.draft;
    }
    const previous = this.#shown;
    if (previous === next || (previous?.step === next?.step && previous?.text === next?.text)) return;
    this.#shown = next;
    this.#listeners.emit(next);
  }
}
