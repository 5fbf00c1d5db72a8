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

function refuse(trail: Trail, why: string): never {
  const path = spell(trail);
  throw new SessionError('SESSION_DATA_NOT_JSON', `data at ${path} is not lossless JSON: ${why}`, {
    details: { path },
  });
}

/**
 * The keys and indexes from the root to the value being copied. The path is spelled out only when
 * a value is refused: building it for every value was most of the copy's garbage.
 */
type Trail = (string | number)[];

function spell(trail: Trail): string {
  let path = '$';
  for (const step of trail) path += typeof step === 'number' ? `[${step}]` : `.${step}`;
  return path;
}

/**
 * Validates that `value` is lossless JSON and returns a deep-frozen copy of it.
 *
 * Copying (rather than freezing the caller's object) is deliberate: the caller may keep and mutate
 * its own reference after appending, and an appended event must never change.
 */
export function toFrozenJson(value: unknown): JsonValue {
  return copy(value, [], []);
}

/** `ancestors`: the objects being copied around `value` (a cycle is one of them again). */
function copy(value: unknown, trail: Trail, ancestors: object[]): JsonValue {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      if (!Number.isFinite(value)) refuse(trail, String(value));
      if (value === 0 && 1 / value < 0) refuse(trail, '-0 reads back as 0');
      return value;
    case 'object': {
      if (value === null) return null;
      // A stack, not a set: data is a few levels deep, and a short scan costs less than hashing.
      if (ancestors.includes(value)) refuse(trail, 'cycle');
      ancestors.push(value);
      const out = Array.isArray(value)
        ? copyArray(value, trail, ancestors)
        : copyObject(value, trail, ancestors);
      ancestors.pop();
      return out;
    }
    case 'undefined':
      return refuse(trail, 'undefined');
    case 'bigint':
      return refuse(trail, 'BigInt');
    default:
      return refuse(trail, typeof value);
  }
}

function copyArray(value: readonly unknown[], trail: Trail, ancestors: object[]): readonly JsonValue[] {
  const out: JsonValue[] = new Array<JsonValue>(value.length);
  for (let i = 0; i < value.length; i++) {
    trail.push(i);
    if (!(i in value)) refuse(trail, 'sparse array hole');
    out[i] = copy(value[i], trail, ancestors);
    trail.pop();
  }
  return Object.freeze(out);
}

function copyObject(value: object, trail: Trail, ancestors: object[]): JsonObject {
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) refuse(trail, 'not a plain object');
  if (Object.getOwnPropertySymbols(value).length > 0) refuse(trail, 'symbol keys');
  const out: Record<string, JsonValue> = {};
  for (const key of Object.keys(value)) {
    trail.push(key);
    const descriptor = Object.getOwnPropertyDescriptor(value, key);
    if (descriptor === undefined || !('value' in descriptor)) refuse(trail, 'accessor property');
    const copied = copy(descriptor.value, trail, ancestors);
    // __proto__ as an own key would become the prototype on an assignment; define it as data.
    // Every other key is assigned (cheaper than a definition); the freeze below makes each
    // property read-only and non-configurable either way.
    if (key === '__proto__')
      Object.defineProperty(out, key, {
        value: copied,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    else out[key] = copied;
    trail.pop();
  }
  return Object.freeze(out);
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
