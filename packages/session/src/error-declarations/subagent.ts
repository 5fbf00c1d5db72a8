import { defineErrors } from '../define-errors.js';

/** The subagent package's codes (listing, spawn and continue, descriptors). */
export const SUBAGENT_ERRORS = defineErrors('subagent', {
  /** The projection registry is missing, or the `subagent` unit is not registered in it (listing cannot classify). */
  SUBAGENT_CONTROL_PROJECTIONS_UNAVAILABLE: {
    meaning: 'The host has no projection registry.',
    number: -32040,
  },
  /** The live Session store is missing (listing cannot tell running from inactive). */
  SUBAGENT_CONTROL_SESSION_STORE_UNAVAILABLE: {
    meaning: 'The host has no live session store.',
    number: -32041,
  },
  /** The session query service is missing (listing has no corpus and no cold observations). */
  SUBAGENT_CONTROL_QUERY_UNAVAILABLE: { meaning: 'The host has no session query service.', number: -32042 },
  /** The caller's signal aborted the operation; every observation it held was disposed. */
  CANCELLED: { meaning: 'The subagent operation was cancelled.', number: -32043 },
  /** The query corpus could not be listed; the whole enumeration fails (per-child isolation covers cold reads only). */
  SUBAGENT_CONTROL_QUERY_FAILED: {
    meaning: 'The session corpus could not be listed for a subagent listing.',
  },
  /** A tool was called with arguments outside its schema. */
  SUBAGENT_CONTROL_INVALID_ARGUMENTS: {
    meaning: 'A subagent tool was called with arguments outside its schema.',
  },
  /** A spawn would put the child deeper than the delegation depth limit. */
  SUBAGENT_CONTROL_DEPTH_LIMIT: { meaning: 'A spawn would exceed the delegation depth limit.' },
  SUBAGENT_CONTROL_LABEL_REQUIRED: { meaning: 'A continuable child was requested without a label.' },
  /** A forked spawn was requested but the parent has no closed turn to seed the child with. */
  SUBAGENT_CONTROL_FORK_EMPTY: { meaning: 'A forked spawn was requested but the parent has no closed turn.' },
  /** No live or stored session has the requested child id. */
  SUBAGENT_CONTROL_NOT_FOUND: { meaning: 'No session has that child id.' },
  /** The caller is not the child's exact direct parent (or the session is no subagent at all). */
  SUBAGENT_CONTROL_NOT_PARENT: { meaning: "The caller is not the child's direct parent." },
  /** The child is one-shot: it cannot be continued. */
  SUBAGENT_CONTROL_NOT_CONTINUABLE: { meaning: 'The child is one-shot and cannot be continued.' },
  /** The child's identity is missing or inherited, or its descriptor at the identity's seq is malformed. */
  SUBAGENT_CONTROL_DESCRIPTOR_CORRUPT: {
    meaning: "The child's identity or descriptor is missing or malformed.",
  },
  SUBAGENT_CONTROL_DESCRIPTOR_UNSUPPORTED: {
    meaning: "The child's descriptor has a version this build does not read.",
  },
  /** Reading the child failed (corrupt log, persistence failure); `cause` keeps the reader's error. */
  SUBAGENT_CONTROL_READ_FAILED: { meaning: 'Reading the child failed (corrupt log, storage failure).' },
  /** The descriptor writer refused a descriptor the parser would not accept (`DescriptorWriteError`). */
  SUBAGENT_DESCRIPTOR_INVALID: {
    meaning: 'The descriptor writer refused a descriptor the parser would not accept.',
  },
});
