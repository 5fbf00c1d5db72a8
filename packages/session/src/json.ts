import { SessionError } from './errors.js';

/** A value that survives `JSON.stringify` → `JSON.parse` unchanged. */
export type JsonValue =
  | null
  | boolean
  | number
  | string
  | readonly JsonValue[]
  | { readonly [key: string]: JsonValue };
export type JsonObject = { readonly [key: string]: JsonValue };

function refuse(path: string, why: string): never {
  throw new SessionError('SESSION_DATA_NOT_JSON', `data at ${path} is not lossless JSON: ${why}`, {
    details: { path },
  });
}

/**
 * Validates that `value` is lossless JSON and returns a deep-frozen copy of it.
 *
 * Copying (rather than freezing the caller's object) is deliberate: the caller may keep and mutate
 * its own reference after appending, and an appended event must never change.
 */
export function toFrozenJson(value: unknown): JsonValue {
  return copy(value, '$', new Set());
}

function copy(value: unknown, path: string, ancestors: Set<object>): JsonValue {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      if (!Number.isFinite(value)) refuse(path, String(value));
      if (Object.is(value, -0)) refuse(path, '-0 reads back as 0');
      return value;
    case 'object': {
      if (value === null) return null;
      if (ancestors.has(value)) refuse(path, 'cycle');
      ancestors.add(value);
      try {
        if (Array.isArray(value)) {
          const out: JsonValue[] = new Array<JsonValue>(value.length);
          for (let i = 0; i < value.length; i++) {
            if (!(i in value)) refuse(`${path}[${i}]`, 'sparse array hole');
            out[i] = copy(value[i], `${path}[${i}]`, ancestors);
          }
          return Object.freeze(out);
        }
        const proto: unknown = Object.getPrototypeOf(value);
        if (proto !== Object.prototype && proto !== null) refuse(path, 'not a plain object');
        if (Object.getOwnPropertySymbols(value).length > 0) refuse(path, 'symbol keys');
        const out: Record<string, JsonValue> = {};
        for (const key of Object.keys(value)) {
          const descriptor = Object.getOwnPropertyDescriptor(value, key);
          if (descriptor === undefined || !('value' in descriptor))
            refuse(`${path}.${key}`, 'accessor property');
          // __proto__ as an own key would become the prototype on a naive copy; define it as data.
          Object.defineProperty(out, key, {
            value: copy(descriptor.value, `${path}.${key}`, ancestors),
            enumerable: true,
            writable: false,
            configurable: false,
          });
        }
        return Object.freeze(out);
      } finally {
        ancestors.delete(value);
      }
    }
    case 'undefined':
      return refuse(path, 'undefined');
    case 'bigint':
      return refuse(path, 'BigInt');
    default:
      return refuse(path, typeof value);
  }
}

/**
 * Deep-freezes a value that came out of `JSON.parse` (already a fresh, plain tree) in place.
 * Returns false if the tree holds a -0 (the only non-lossless value JSON.parse can produce).
 */
export function deepFreezeParsed(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return !(value === 0 && 1 / value < 0);
  Object.freeze(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!deepFreezeParsed(value[i])) return false;
    return true;
  }
  for (const key in value) if (!deepFreezeParsed((value as Record<string, unknown>)[key])) return false;
  return true;
}
