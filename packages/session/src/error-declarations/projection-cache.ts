import { defineErrors } from '../define-errors.js';

/** The projection cache's codes. Reads never throw: a fault reading a row is a miss. */
export const PROJECTION_CACHE_ERRORS = defineErrors('projection-cache', {
  /** The cache database could not be opened or its schema created. */
  PROJECTION_CACHE_OPEN_FAILED: {
    meaning: 'The projection cache database could not be opened or its schema created.',
  },
  /** The database was written by a newer cache schema than this build reads. */
  PROJECTION_CACHE_SCHEMA_UNSUPPORTED: { meaning: 'The projection cache was written by a newer schema.' },
  /** A row write or forget failed (store error, state not serializable): thrown by `put`/`forget`, contained and logged by the write policy; a store that writes behind logs later failures with it. */
  PROJECTION_CACHE_WRITE_FAILED: {
    meaning: 'A projection cache row write or forget failed (contained and logged).',
  },
  /** The cache was closed. */
  PROJECTION_CACHE_CLOSED: { meaning: 'The projection cache was closed.' },
  /** Rows could not be loaded from the cache's store (PostgreSQL's mirror): logged, never thrown; reads of those sessions miss until a later load. */
  PROJECTION_CACHE_READ_FAILED: {
    meaning: 'Projection cache rows could not be loaded from the store (logged; reads miss meanwhile).',
  },
});
