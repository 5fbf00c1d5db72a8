/**
 * Defensive readers for event data inside units. Core data is validated on append, but a unit also
 * folds logs written by older or newer builds and importers, and must fold corrupt input to `null`
 * instead of throwing — so units never trust a field's shape.
 */
import { isRecord } from '@strand/session';

export { isRecord };

export function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}
