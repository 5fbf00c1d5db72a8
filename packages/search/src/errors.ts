import { defined } from '@strand/session';
import { SEARCH_INDEX_ERRORS, type StrandErrorOptions } from '@strand/session/errors';

/** The search index's codes (owner `search` of the wire table); callers switch on `code`, never on `message`. */
export const SEARCH_INDEX_ERROR_CODES = SEARCH_INDEX_ERRORS.codes;
export type SearchIndexErrorCode = (typeof SEARCH_INDEX_ERROR_CODES)[number];

/** The search index's one error class. */
export class SearchIndexError extends SEARCH_INDEX_ERRORS.errorClass('SearchIndexError') {
  readonly sessionId: string | undefined;

  constructor(
    code: SearchIndexErrorCode,
    message: string,
    options: StrandErrorOptions & { sessionId?: string } = {},
  ) {
    super(code, message, options);
    this.sessionId = options.sessionId;
  }

  protected override jsonFields(): { sessionId?: string } {
    return defined({ sessionId: this.sessionId });
  }
}

export function isSearchIndexError(error: unknown, code?: SearchIndexErrorCode): error is SearchIndexError {
  return error instanceof SearchIndexError && (code === undefined || error.code === code);
}

export function throwIfSearchAborted(signal: AbortSignal | undefined, what: string): void {
  if (signal?.aborted === true)
    throw new SearchIndexError('SEARCH_ABORTED', `${what} was aborted`, { cause: signal.reason });
}
