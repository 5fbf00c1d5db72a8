import { defineErrors } from '../define-errors.js';

/** The search index's codes; callers switch on `code`, never on `message`. */
export const SEARCH_INDEX_ERRORS = defineErrors('search', {
  /** The cursor's result snapshot is gone: the index was rebuilt (generation bumped), the cursor is from another index, or the snapshot expired. Start the search again. */
  SEARCH_STALE_CURSOR: {
    meaning: 'The search cursor predates an index rebuild; search again.',
    number: -32026,
  },
  /** The index database cannot be opened, read or written (SQLite error, foreign or newer file, closed index). */
  SEARCH_INDEX_FAILED: { meaning: 'The search index could not be opened, read or written.', number: -32027 },
  /** The query is empty or whitespace-only, too long, or an option (limit, cursor) is malformed. */
  SEARCH_INVALID_QUERY: {
    meaning: 'The search is empty, too long, or an option (limit, cursor) is malformed.',
  },
  /** The caller's signal aborted the sync, rebuild or search; work committed before the checkpoint is kept. */
  SEARCH_ABORTED: { meaning: 'The search, sync or rebuild was cancelled.' },
  /** Listing or reading the persisted corpus failed (per-session read failures are reported in the sync report instead). */
  SEARCH_PERSISTENCE_FAILED: { meaning: 'Listing or reading the stored sessions to index failed.' },
});
