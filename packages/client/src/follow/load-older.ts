import type { ResultOf } from '@strand/protocol';
import { assertNever } from '../assert-never.js';
import { StrandClientError } from '../errors.js';
import { prependOlder } from './event-window.js';
import type { LoadOlderResult, ShownGeneration } from './follow-view.js';
import { windowOf, withWindow } from './shown-generation.js';

/**
 * Puts a `session.page { beforeSeq: askedBefore }` result in front of what is shown now. `shown`
 * may have changed while the page was in flight; a page that no longer joins is `superseded`, a
 * page that should join and does not is the host's fault (`CLIENT_PAGE_INVALID`).
 */
export function applyOlderPage(
  sessionId: string,
  shown: ShownGeneration,
  askedBefore: number,
  page: ResultOf<'session.page'>,
): { readonly shown: ShownGeneration; readonly result: LoadOlderResult } {
  const invalid = (reason: string): never => {
    throw new StrandClientError(
      'CLIENT_PAGE_INVALID',
      `page of ${sessionId} before seq ${askedBefore}: ${reason}`,
    );
  };
  const result = prependOlder(windowOf(shown), page);
  switch (result.kind) {
    case 'prepended':
      return { shown: withWindow(shown, result.window), result: { kind: 'loaded', count: result.count } };
    case 'disjoint':
      return shown.firstSeq === askedBefore
        ? invalid(result.reason)
        : { shown, result: { kind: 'superseded' } };
    case 'empty':
      return shown.firstSeq === askedBefore
        ? invalid('no events')
        : { shown, result: { kind: 'superseded' } };
    default:
      return assertNever(result, 'prepend result');
  }
}
