import type { SessionHeader } from '@strand/session';

/** The header fields that identify one lifecycle of a session id (the listing contract's witness set). */
export const LIFECYCLE_WITNESS_FIELDS = [
  'version',
  'id',
  'createdAt',
  'cwd',
  'parentSession',
  'isSeeded',
  'delegationDepth',
  'origin',
  'agentPreset',
] as const satisfies readonly (keyof SessionHeader)[];

/**
 * Whether an observation still points at the lifecycle that was enumerated. A session deleted and
 * published again under the same id differs in at least one witness field (its `createdAt` at
 * least, in practice), and must not lend its identity to the old parent's catalog.
 */
export function sameLifecycle(enumerated: SessionHeader, observed: SessionHeader): boolean {
  return LIFECYCLE_WITNESS_FIELDS.every((field) => Object.is(enumerated[field], observed[field]));
}
