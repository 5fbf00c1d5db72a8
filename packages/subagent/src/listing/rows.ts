import type { Candidate } from './catalog.js';
import type { LadderResult } from './ladder-result.js';
import type { SubagentListEntry } from './types.js';

/**
 * The four-state mapping (the listing contract) of a ladder result to a row, or `undefined` for no row:
 * an identity is a `child` row; "computed to nothing" is a `corrupt` diagnostic when the child is
 * inactive (settled debris) and no row when it is running (the creation window: the descriptor is
 * not appended yet); a failed computation is `corrupt`; a failed cold read is `unavailable`.
 */
export function entryFor(
  candidate: Candidate,
  result: LadderResult,
  hasChildren: boolean,
): SubagentListEntry | undefined {
  const id = candidate.id;
  switch (result.kind) {
    case 'identity': {
      const activity = result.running ? 'running' : 'inactive';
      const { identity } = result;
      if (identity.mode === 'continuable') {
        return { kind: 'child', id, activity, hasChildren, mode: 'continuable', label: identity.label };
      }
      return identity.label === undefined
        ? { kind: 'child', id, activity, hasChildren, mode: 'one-shot' }
        : { kind: 'child', id, activity, hasChildren, mode: 'one-shot', label: identity.label };
    }
    case 'none':
      return result.running ? undefined : { kind: 'diagnostic', id, reason: 'corrupt' };
    case 'corrupt':
      return { kind: 'diagnostic', id, reason: 'corrupt' };
    case 'unavailable':
      return { kind: 'diagnostic', id, reason: 'unavailable' };
    default:
      return result satisfies never;
  }
}
