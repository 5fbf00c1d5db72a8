/** The end of every exhaustive `switch` on a discriminant: a compile error when a case is missing. */
export function assertNever(value: never, what = 'value'): never {
  throw new Error(`unexpected ${what}: ${JSON.stringify(value)}`);
}
