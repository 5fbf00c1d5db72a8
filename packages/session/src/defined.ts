/** The keys of `T` whose values may be `undefined`. */
type MaybeUndefinedKeys<T> = { [K in keyof T]-?: undefined extends T[K] ? K : never }[keyof T];

/**
 * `T` with every key whose value may be `undefined` made optional instead: what `defined` returns,
 * assignable to a type whose optional properties do not take `undefined`
 * (`exactOptionalPropertyTypes`).
 */
export type Defined<T> = { [K in Exclude<keyof T, MaybeUndefinedKeys<T>>]: T[K] } & {
  [K in MaybeUndefinedKeys<T>]?: Exclude<T[K], undefined>;
};

/**
 * `fields` without the keys whose value is `undefined`: the one way to build an object with
 * optional properties from values that may be absent (`...defined({ cwd, title })`), instead of a
 * conditional spread per property. The keys are left out, not set to `undefined`, so the object is
 * the same one a reader of the log or the wire sees after JSON (which drops them) — `'cwd' in x`,
 * `Object.keys` and strict equality agree before and after a round trip.
 */
export function defined<T extends object>(fields: T): Defined<T> {
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    // A key named `__proto__` (parsed JSON has them) is defined, not assigned: assigning would
    // replace the object's prototype instead of keeping the key, as JSON.parse keeps it.
    if (key === '__proto__')
      Object.defineProperty(kept, key, { value, enumerable: true, writable: true, configurable: true });
    else kept[key] = value;
  }
  return kept as Defined<T>;
}
