import { defineErrors } from '../define-errors.js';

/** The projection package's codes. */
export const PROJECTION_ERRORS = defineErrors('projection', {
  /** A unit threw (init, apply or view) against its contract: that session's whole snapshot fails; consumers map it to corrupt session data. */
  PROJECTION_FAILED: {
    meaning: 'A projection unit threw against its contract; the session reads as corrupt.',
  },
  /** A key is already registered with another unit or another stateVersion. */
  PROJECTION_KEY_CONFLICT: { meaning: 'A key is already registered with another unit or stateVersion.' },
  /** A unit's key is empty or its stateVersion is not a positive integer. */
  PROJECTION_UNIT_INVALID: { meaning: 'A unit key is empty or its stateVersion is not a positive integer.' },
  /** `snapshot`/`checkpoint` of a session the registry does not track (call `track` or `bindStore` first). */
  PROJECTION_NOT_TRACKED: { meaning: 'The registry does not track that session.' },
  /** Events handed to a cold fold are not contiguous from the stated start: expected seq N, got M. */
  PROJECTION_EVENTS_NOT_CONTIGUOUS: {
    meaning: 'Events handed to a cold fold are not contiguous: expected seq N, got M.',
  },
  /** An `onChanged`/`onTracking` listener threw; reported through `reportError`, never thrown to the appender. */
  PROJECTION_LISTENER_FAILED: {
    meaning: 'A projection listener threw; reported, never thrown to the appender.',
  },
});
