import type { RpcCaller } from '../connection/rpc-caller.js';
import { StrandClientError } from '../errors.js';
import { appendEvents, windowEnd, type EventWindow } from './event-window.js';

export type PageForwardResult =
  | { readonly kind: 'filled'; readonly window: EventWindow }
  /** `isCurrent()` turned false while a page was in flight: the caller no longer owns the window. */
  | { readonly kind: 'superseded' }
  /** A page call failed, or a page did not continue the window. */
  | { readonly kind: 'failed'; readonly error: unknown };

/**
 * Extends `window` up to seq `to` (exclusive) with `session.page { fromSeq, toSeq }`, as many
 * pages as the host's limit needs. Robust to either reading of `toSeq`: events at or beyond `to`
 * that a host includes are kept (they continue the window); duplicates are dropped.
 */
export async function pageForward(
  rpc: RpcCaller,
  sessionId: string,
  start: EventWindow,
  to: number,
  isCurrent: () => boolean,
  limit: number,
): Promise<PageForwardResult> {
  let window = start;
  while (windowEnd(window) < to) {
    const fromSeq = windowEnd(window);
    let page;
    try {
      page = await rpc.call('session.page', { id: sessionId, fromSeq, toSeq: to, limit });
    } catch (error) {
      return isCurrent() ? { kind: 'failed', error } : { kind: 'superseded' };
    }
    if (!isCurrent()) return { kind: 'superseded' };
    const appended = appendEvents(window, page.events);
    if (appended.kind !== 'appended') {
      return {
        kind: 'failed',
        error: new StrandClientError(
          'CLIENT_PAGE_INVALID',
          `page of ${sessionId}: no events from seq ${fromSeq} (${appended.kind})`,
        ),
      };
    }
    window = appended.window;
  }
  return { kind: 'filled', window };
}
