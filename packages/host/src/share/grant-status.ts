import type { ShareGrantView } from '@strand/protocol';
import type { ShareGrant } from './grant-store.js';

export type GrantStatus = ShareGrantView['status'];

/** Revoked wins over expired: a revoked link says so even after it would have expired. */
export function grantStatus(grant: ShareGrant, now: number): GrantStatus {
  if (grant.revokedAt !== null) return 'revoked';
  if (grant.expiresAt !== null && now >= grant.expiresAt) return 'expired';
  return 'active';
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** A grant as `share.list` shows it: never its token hash. */
export function grantView(grant: ShareGrant, now: number): ShareGrantView {
  return {
    grantId: grant.grantId,
    sessionId: grant.sessionId,
    descendants: grant.descendants,
    expiresAt: iso(grant.expiresAt),
    label: grant.label,
    createdBy: grant.createdBy,
    createdAt: new Date(grant.createdAt).toISOString(),
    revokedAt: iso(grant.revokedAt),
    status: grantStatus(grant, now),
  };
}
