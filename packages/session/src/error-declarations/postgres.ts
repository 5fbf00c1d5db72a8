import { defineErrors } from '../define-errors.js';

/**
 * The PostgreSQL package's own codes: its coordination part (leases, the append feed) first, then
 * the store's. Its persistence, cache and search backends throw the codes of the seams they implement.
 */
export const POSTGRES_ERRORS = defineErrors('postgres', {
  /** Another host holds an unexpired lease on the session; `details` names the owner and expiry. */
  SESSION_OWNED_ELSEWHERE: {
    meaning: 'Another host holds the session lease (runs its agent); `data` names the owner and expiry.',
    number: -32060,
  },
  COORDINATION_CLOSED: { meaning: 'The lease table or append feed was closed.' },
  /** Invalid options (a lease ttl or renewal interval out of range, an empty owner). */
  COORDINATION_CONFIG_INVALID: { meaning: 'Invalid lease or feed options (ttl, renewal interval, owner).' },
  POSTGRES_PERSISTENCE_CONFIG_INVALID: { meaning: 'A bad option of the PostgreSQL store (e.g. poolSize).' },
  POSTGRES_SCHEMA_NEWER: { meaning: "The database's schema is newer than this Strand understands." },
});
