import { defineErrors } from '../define-errors.js';

/** The session package's codes: the live log's refusals (ids, data, headers, seqs, writes). */
export const SESSION_ERRORS = defineErrors('session', {
  /** A session id is empty, too long, or contains control characters. */
  SESSION_ID_INVALID: {
    meaning: 'The session id is malformed (empty, too long, control characters).',
    number: -32010,
  },
  /** A core event type's data does not match its schema. */
  SESSION_EVENT_INVALID: { meaning: 'A command would append an invalid event.', number: -32011 },
  /** A fork was requested at a cut that is not a closed-turn boundary, or beyond the log. */
  SESSION_FORK_CUT_INVALID: { meaning: 'The fork point is outside the log.', number: -32012 },
  /** The durable write behind an append failed; the live session refuses further appends. */
  SESSION_WRITE_FAILED: {
    meaning:
      'A durable write of the session failed, so it stopped; nothing past its durable cut was shown. Fix the cause: the next command reopens it from disk.',
    number: -32013,
  },
  /** Event data is not lossless JSON (NaN, -0, undefined, cycles, BigInt, class instances, sparse arrays…). */
  SESSION_DATA_NOT_JSON: {
    meaning: 'Event data is not lossless JSON (NaN, -0, undefined, cycles, class instances…).',
  },
  SESSION_HEADER_INVALID: { meaning: 'A header does not match the header schema.' },
  SESSION_SEQ_MISMATCH: { meaning: 'Events are not contiguous: expected seq N, got M.' },
  SESSION_ALREADY_ATTACHED: { meaning: 'A session with this id is already attached to the store.' },
  /** A command would append to a session another harness owns (its header has a `source`). */
  SESSION_READ_ONLY: {
    meaning:
      'The session was imported from another harness (its header has a `source`), which owns it: reads, follows and forks are allowed, commands that append are refused.',
  },
});
