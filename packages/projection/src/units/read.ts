/**
 * Defensive readers for event data inside units. Core data is validated on append, but a unit also
 * folds logs written by older or newer builds and importers, and must fold corrupt input to `null`
 * instead of throwing — so units never trust a field's shape.
 */
export function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}
