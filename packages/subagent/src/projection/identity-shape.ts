import { isRecord } from '@strand/session';
import type { SubagentIdentityProjection, SubagentTimingProjection } from './projection-types.js';

const isLabel = (value: unknown): value is string => typeof value === 'string' && value.length > 0;
const isTime = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value);
const isCount = (value: unknown): value is number => isTime(value) && value >= 0;

/**
 * Whether `value` is a well-formed identity view. This checks a *projection value* (the unit's
 * own output, restored from a checkpoint or carried by a snapshot typed `unknown`), never event
 * data: descriptors are interpreted only by `parseSubagentDescriptor` inside the unit.
 */
export function isSubagentIdentity(value: unknown): value is SubagentIdentityProjection {
  if (!isRecord(value) || !isCount(value.seq)) return false;
  const keys = Object.keys(value).length;
  if (value.mode === 'continuable') return keys === 3 && isLabel(value.label);
  if (value.mode === 'one-shot')
    return value.label === undefined ? keys === 2 : keys === 3 && isLabel(value.label);
  return false;
}

/** Whether `value` is a well-formed timing view (the state carries the same three fields). */
export function isSubagentTiming(value: unknown): value is SubagentTimingProjection {
  if (!isRecord(value) || !isCount(value.settledMs) || !isCount(value.settledTurns)) return false;
  const active = value.active;
  return active === null || (isRecord(active) && isTime(active.since) && isTime(active.through));
}
