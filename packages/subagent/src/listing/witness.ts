import { SESSION_HEADER_KEYS, type SessionHeader, type SessionHeaderKey } from '@strand/session';

/**
 * Header fields that are not witnesses, on purpose: `forkedFrom` and `source` are set once at
 * creation like the others but are not in the listing contract's witness set, which predates them
 * and which a stored catalog's identity checks depend on. Any field added to the header later is
 * a witness unless it is named here.
 */
const NOT_WITNESSES: readonly SessionHeaderKey[] = ['forkedFrom', 'source'];

/** The header fields that identify one lifecycle of a session id (the listing contract's witness set). */
export const LIFECYCLE_WITNESS_FIELDS = SESSION_HEADER_KEYS.filter((key) => !NOT_WITNESSES.includes(key));

/**
 * Whether an observation still points at the lifecycle that was enumerated. A session deleted and
 * published again under the same id differs in at least one witness field (its `createdAt` at
 * least, in practice), and must not lend its identity to the old parent's catalog.
 */
export function sameLifecycle(enumerated: SessionHeader, observed: SessionHeader): boolean {
  return LIFECYCLE_WITNESS_FIELDS.every((field) => Object.is(enumerated[field], observed[field]));
}
