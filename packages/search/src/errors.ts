/**
 * Stable codes of the search index, its own `SEARCH_*` entries of the wire error table (owner
 * `search` in `@strand/protocol`); callers switch on `code`, never on `message`.
 */
export type SearchIndexErrorCode = (typeof SEARCH_INDEX_ERROR_CODES)[number];

export const SEARCH_INDEX_ERROR_CODES = [
  /** The query is empty or whitespace-only, too long, or an option (limit, cursor) is malformed. */
  'SEARCH_INVALID_QUERY',
  /** The cursor's result snapshot is gone: the index was rebuilt (generation bumped), the cursor is from another index, or the snapshot expired. Start the search again. */
  'SEARCH_STALE_CURSOR',
  /** The caller's signal aborted the sync, rebuild or search; work committed before the checkpoint is kept. */
  'SEARCH_ABORTED',
  /** Listing or reading the persisted corpus failed (per-session read failures are reported in the sync report instead). */
  'SEARCH_PERSISTENCE_FAILED',
  /** The index database cannot be opened, read or written (SQLite error, foreign or newer file, closed index). */
  'SEARCH_INDEX_FAILED',
] as const;

/** The search index's one error class. */
export class SearchIndexError extends Error {
  override readonly name = 'SearchIndexError';
  readonly code: SearchIndexErrorCode;
  readonly sessionId: string | undefined;

  constructor(
    code: SearchIndexErrorCode,
    message: string,
    options: { cause?: unknown; sessionId?: string } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.sessionId = options.sessionId;
  }

  toJSON(): { name: string; code: SearchIndexErrorCode; message: string; sessionId?: string } {
    return {
      name: this.name,
      code: this.code,
      message: this.message,
      ...(this.sessionId === undefined ? {} : { sessionId: this.sessionId }),
    };
  }
}

export function isSearchIndexError(error: unknown, code?: SearchIndexErrorCode): error is SearchIndexError {
  return error instanceof SearchIndexError && (code === undefined || error.code === code);
}

export function throwIfSearchAborted(signal: AbortSignal | undefined, what: string): void {
  if (signal?.aborted === true)
    throw new SearchIndexError('SEARCH_ABORTED', `${what} was aborted`, { cause: signal.reason });
}
