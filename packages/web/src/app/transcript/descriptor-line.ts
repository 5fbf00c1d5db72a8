import type { ProjectionLookup } from '@strand/client';
import { isRecord, truncate } from '../shared/format.js';

/**
 * `SUBAGENT_DESCRIPTOR_EVENT` of `@strand/subagent`, which the browser does not import (the
 * browser test `transcript-rows.e2e.test.ts` holds the two equal); the transcript rows' own.
 */
export { DESCRIPTOR_EVENT } from '@strand/transcript';

/** The `subagent` identity projection's key (`SUBAGENT_IDENTITY_KEY`). */
export const IDENTITY_KEY = 'subagent';

/**
 * What a child's descriptor row says about the child, decided by the `subagent` identity
 * projection (the one descriptor parser's fold), never by reading the row's JSON here:
 * - `identity`: this descriptor is the one the identity stands on;
 * - `replaced`: a later descriptor decides the identity (the projection names its seq);
 * - `unreadable`: the unit folded the last descriptor to nothing (malformed, or a newer version);
 * - `unknown`: the projection has not arrived, or still describes an earlier descriptor.
 */
export type DescriptorRole =
  | { readonly kind: 'identity'; readonly mode: 'one-shot' | 'continuable'; readonly label?: string }
  | { readonly kind: 'replaced'; readonly by: number }
  | { readonly kind: 'unreadable' }
  | { readonly kind: 'unknown' };

export function descriptorRole(seq: number, identity: ProjectionLookup): DescriptorRole {
  if (!identity.known) return { kind: 'unknown' };
  const value = identity.value;
  if (value === null) return { kind: 'unreadable' };
  if (!isRecord(value) || typeof value.seq !== 'number') return { kind: 'unknown' };
  if (value.seq > seq) return { kind: 'replaced', by: value.seq };
  if (value.seq < seq || (value.mode !== 'one-shot' && value.mode !== 'continuable'))
    return { kind: 'unknown' };
  const label = typeof value.label === 'string' && value.label !== '' ? value.label : undefined;
  return label === undefined
    ? { kind: 'identity', mode: value.mode }
    : { kind: 'identity', mode: value.mode, label };
}

/** The role in words, after "subagent of <parent> · "; undefined when there is nothing to say yet. */
export function roleText(role: DescriptorRole): string | undefined {
  switch (role.kind) {
    case 'identity':
      return role.label === undefined ? `${role.mode} agent` : `${role.label} (${role.mode})`;
    case 'replaced':
      return `identity replaced at #${role.by}`;
    case 'unreadable':
      return 'identity unreadable (a malformed descriptor, or one of a newer version)';
    case 'unknown':
      return undefined;
    default: {
      const exhaustive: never = role;
      throw new Error(`unhandled descriptor role ${JSON.stringify(exhaustive)}`);
    }
  }
}

/** How the parent is named: its title when the store knows one, else its id (never a guess). */
export function parentName(parentId: string, title: ProjectionLookup): string {
  return title.known && typeof title.value === 'string' && title.value.trim() !== ''
    ? truncate(title.value, 80)
    : parentId;
}
