import { defineErrors } from '../define-errors.js';

/** The client package's codes. Errors the host sends travel as `StrandRpcError` (protocol). */
export const CLIENT_ERRORS = defineErrors('client', {
  /** The socket closed while the call was in flight; the host may or may not have executed it. */
  CLIENT_DISCONNECTED: { meaning: 'The socket closed while the call was in flight.' },
  /** The connection was closed by its owner; it makes no further calls. */
  CLIENT_CLOSED: { meaning: 'The connection was closed by its owner.' },
  /** A follow snapshot failed validation (header id, contiguous events, cursor, baseline cut). */
  CLIENT_SNAPSHOT_INVALID: { meaning: 'A follow snapshot failed validation.' },
  /** A `session.page` result did not join the event window it was asked for. */
  CLIENT_PAGE_INVALID: { meaning: 'A `session.page` result did not join the window asked for.' },
  CLIENT_FOLLOW_ACTIVE: { meaning: '`follow()` on a follower that already follows a session.' },
  CLIENT_NOT_FOLLOWING: { meaning: 'An operation that needs a followed session on an idle follower.' },
  /** A projection value does not have the shape its key's client view promises. */
  CLIENT_PROJECTION_INVALID: {
    meaning: 'A projection value does not have the shape its client view promises.',
  },
  /** Another method's result does not have the shape its protocol schema describes. */
  CLIENT_RESULT_INVALID: {
    meaning: 'A method result does not have the shape its protocol schema describes.',
  },
});
