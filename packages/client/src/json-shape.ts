/**
 * The client's two shape checks on `unknown` JSON (wire results, frames, projection values), one
 * definition each for the client and the web UI. `@strand/session` has the Node packages' twin
 * (`json-shape.ts`): the layer rules keep browser packages off `session`, so this is the one
 * deliberate second copy.
 */

/** A JSON object: not null, not an array. Says nothing about its keys. */
export function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Structural equality of JSON values (what projection values are after crossing the wire). Used
 * only to tell "the row moved to a higher seq with the same value" from "the value changed", so
 * subscribers are not woken for a seq-only advance.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, index) => jsonEqual(item, b[index]));
  }
  const aKeys = Object.keys(a);
  const bRecord = b as Record<string, unknown>;
  const aRecord = a as Record<string, unknown>;
  if (aKeys.length !== Object.keys(b).length) return false;
  return aKeys.every((key) => Object.hasOwn(bRecord, key) && jsonEqual(aRecord[key], bRecord[key]));
}
