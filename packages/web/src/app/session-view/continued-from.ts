import type { ProjectionLookup } from '@strand/client';

/** The `continuedFrom` unit's value as the view reads it: origin and harness, or undefined. */
export interface ContinuedFrom {
  readonly session: string;
  readonly harness: string;
}

/** The `continuedFrom` projection's value, when known and of its shape (a newer host's extra keys pass). */
export function readContinuedFrom(lookup: ProjectionLookup): ContinuedFrom | undefined {
  if (!lookup.known) return undefined;
  const value = lookup.value as { session?: unknown; harness?: unknown } | null;
  if (typeof value !== 'object' || value === null) return undefined;
  const { session, harness } = value;
  return typeof session === 'string' && session !== '' && typeof harness === 'string'
    ? { session, harness }
    : undefined;
}
