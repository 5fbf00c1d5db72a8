import fc from 'fast-check';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { defined } from './defined.js';

describe('defined', () => {
  it('keeps exactly the keys whose value is not undefined, with their values (null and falsy kept)', () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.string(),
          fc.oneof(fc.constant(undefined), fc.constant(null), fc.integer(), fc.string()),
        ),
        (fields) => {
          const kept = defined(fields);
          const expected = Object.entries(fields).filter(([, value]) => value !== undefined);
          expect(Object.entries(kept)).toEqual(expected);
          expect(kept).toStrictEqual(JSON.parse(JSON.stringify(kept)) as unknown);
        },
      ),
    );
  });

  it('types a maybe-undefined value as an optional property that does not take undefined', () => {
    const cwd = undefined as string | undefined;
    const built = { id: 's', ...defined({ cwd, count: 0 }) };
    // Compiles only because `cwd` became optional without `undefined` (exactOptionalPropertyTypes).
    const target: { id: string; count: number; cwd?: string } = built;
    expectTypeOf(built.count).toEqualTypeOf<number>();
    expect(target).toStrictEqual({ id: 's', count: 0 });
  });
});
