import { defineErrors } from '../define-errors.js';

/** The query package's codes. Cancellation is never reported as not-found. */
export const SESSION_QUERY_ERRORS = defineErrors('query', {
  SESSION_QUERY_NOT_FOUND: { meaning: 'Neither a live nor a persisted session has this id.', number: -32020 },
  /** The stored log is damaged or unreadable as a session, or a projection unit failed on it. */
  SESSION_QUERY_CORRUPT_SESSION: {
    meaning: 'The stored session is damaged or a projection failed on it.',
    number: -32021,
  },
  /** The live/cold sources kept changing under the resolution (attach/detach races beyond the retry budget). */
  SESSION_QUERY_SOURCE_CONFLICT: {
    meaning: 'The session kept changing between live and cold while being read.',
    number: -32022,
  },
  /** The caller's signal aborted the query; every lease acquired so far was released. */
  SESSION_QUERY_ABORTED: { meaning: 'The read was cancelled.', number: -32023 },
  /** The persistence layer failed (I/O, closed store…). */
  SESSION_QUERY_PERSISTENCE_FAILED: { meaning: 'Storage failed while reading.', number: -32024 },
  /** Options are invalid (a negative window, an empty search…). */
  SESSION_QUERY_INVALID_QUERY: {
    meaning: 'The query or window is invalid (e.g. an empty search).',
    number: -32025,
  },
});
