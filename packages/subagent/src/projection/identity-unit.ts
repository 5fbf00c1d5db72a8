import type { ProjectionUnitFor } from '@strand/projection';
import type { SessionEvent } from '@strand/session';
import { SUBAGENT_DESCRIPTOR_EVENT, parseSubagentDescriptor } from '../descriptor.js';
import { isSubagentIdentity } from './identity-shape.js';
import type { SubagentIdentityProjection, SubagentIdentityState } from './projection-types.js';

export const SUBAGENT_IDENTITY_KEY = 'subagent';
/** The only event type the identity unit reads; every other type returns the same state. */
export const SUBAGENT_IDENTITY_READS: readonly string[] = Object.freeze([SUBAGENT_DESCRIPTOR_EVENT]);

/** "Computed to nothing": no descriptor yet, or the last one was corrupt or of an unknown version. */
const NOTHING: SubagentIdentityState = Object.freeze({});

function identityOf(event: SessionEvent): SubagentIdentityProjection | undefined {
  const parsed = parseSubagentDescriptor(event.data);
  if (parsed.kind !== 'ok') return undefined;
  const { descriptor } = parsed;
  if (descriptor.mode === 'continuable')
    return { mode: 'continuable', label: descriptor.label, seq: event.seq };
  return descriptor.label === undefined
    ? { mode: 'one-shot', seq: event.seq }
    : { mode: 'one-shot', label: descriptor.label, seq: event.seq };
}

/**
 * The `subagent` identity unit (the listing contract): last-wins over `subagent/descriptor`, parsed by the one
 * descriptor parser. A corrupt or unknown-version payload resets to the null sentinel instead of
 * keeping the previous identity, so a fork of a healthy ancestor never inherits an identity its
 * own descriptor cannot stand up. The identity carries the descriptor event's `seq`: consumers
 * check it against the session's own suffix, which the unit cannot see.
 *
 * `stateVersion` 2: bumped when `seq` was added; older checkpoint rows are discarded.
 */
export const subagentIdentityUnit: ProjectionUnitFor<'subagent'> = {
  key: SUBAGENT_IDENTITY_KEY,
  stateVersion: 2,
  dataReads: SUBAGENT_IDENTITY_READS,
  init: () => NOTHING,
  apply(state, event) {
    if (event.type !== SUBAGENT_DESCRIPTOR_EVENT) return state;
    const identity = identityOf(event);
    if (identity === undefined) return state.identity === undefined ? state : NOTHING;
    return { identity };
  },
  view(state) {
    const identity = state.identity;
    if (identity === undefined) return null;
    // Only a poisoned checkpoint row can get here; throwing makes the cache treat it as a miss.
    if (!isSubagentIdentity(identity)) throw new TypeError('subagent identity state is not an identity');
    return identity;
  },
};
