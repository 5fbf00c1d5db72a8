import type { WireEvent } from '@strand/protocol';
import { assertNever } from '../assert-never.js';
import type { RpcCaller } from '../connection/rpc-caller.js';
import { appendEvents, type EventWindow } from './event-window.js';
import { pageForward } from './page-forward.js';

export type LiveEventsResult =
  /** The window grew: show it. */
  | { readonly kind: 'advanced'; readonly window: EventWindow }
  /** Every event was already shown (a duplicate frame). */
  | { readonly kind: 'unchanged' }
  /** The generation was replaced while a repair page was in flight. */
  | { readonly kind: 'superseded' }
  /** The hole could not be paged in: open a new generation. */
  | { readonly kind: 'broken'; readonly error: unknown };

/**
 * Continues `window` with a `follow.events` batch. A batch that starts beyond the window's end is
 * preceded by a hole, paged in with `session.page` first — so no seq is lost and none is shown twice.
 */
export async function continueWindow(
  rpc: RpcCaller,
  sessionId: string,
  window: EventWindow,
  batch: readonly WireEvent[],
  options: { readonly isCurrent: () => boolean; readonly pageLimit: number },
): Promise<LiveEventsResult> {
  const result = appendEvents(window, batch);
  switch (result.kind) {
    case 'appended':
      return { kind: 'advanced', window: result.window };
    case 'duplicate':
      return { kind: 'unchanged' };
    case 'gap': {
      const filled = await pageForward(
        rpc,
        sessionId,
        window,
        result.got,
        options.isCurrent,
        options.pageLimit,
      );
      if (filled.kind === 'superseded') return filled;
      if (filled.kind === 'failed') return { kind: 'broken', error: filled.error };
      // The page may already have brought the batch's events (a host may read `toSeq` inclusively).
      const after = appendEvents(filled.window, batch);
      return { kind: 'advanced', window: after.kind === 'appended' ? after.window : filled.window };
    }
    default:
      return assertNever(result, 'append result');
  }
}
