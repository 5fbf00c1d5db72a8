/**
 * A type read-only all the way down, with optional keys meaning "absent" rather than "present and
 * `undefined`" (JSON has no `undefined`; `exactOptionalPropertyTypes` keeps the two apart). What a
 * schema's parsed output becomes as a type of the log or the wire.
 */
export type DeepReadonly<T> = T extends Primitive
  ? T // branded primitives (`SessionId`) included: they are intersections with an object type
  : T extends readonly (infer U)[]
    ? readonly DeepReadonly<U>[]
    : T extends object
      ? { readonly [K in keyof T]: DeepReadonly<Exclude<T[K], undefined>> }
      : T;

type Primitive = string | number | boolean | bigint | symbol | null | undefined;
