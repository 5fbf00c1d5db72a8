import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SessionError } from './errors.js';
import { toFrozenJson } from './json.js';

function refusal(value: unknown): { path: unknown; message: string } {
  try {
    toFrozenJson(value);
  } catch (error) {
    expect(error).toBeInstanceOf(SessionError);
    const e = error as SessionError;
    expect(e.code).toBe('SESSION_DATA_NOT_JSON');
    return { path: (e.details as { path?: unknown } | undefined)?.path, message: e.message };
  }
  throw new Error('not refused');
}

function isDeepFrozen(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  return Object.isFrozen(value) && Object.values(value).every(isDeepFrozen);
}

describe('toFrozenJson', () => {
  it('returns a deep-frozen copy equal to any JSON value, sharing no object with it (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (raw) => {
        const value: unknown = JSON.parse(JSON.stringify(raw)); // JSON as it reads back: no -0
        const copied = toFrozenJson(value);
        expect(copied).toStrictEqual(value);
        expect(isDeepFrozen(copied)).toBe(true);
        if (typeof value === 'object' && value !== null) expect(copied).not.toBe(value);
      }),
    );
  });

  it('names the path of the value it refuses', () => {
    expect(refusal({ a: [1, { b: NaN }] })).toMatchObject({
      path: '$.a[1].b',
      message: expect.stringContaining('data at $.a[1].b is not lossless JSON: NaN') as unknown,
    });
    expect(refusal([0, [1, -0]]).path).toBe('$[1][1]');
    // eslint-disable-next-line no-sparse-arrays -- the hole is the point
    expect(refusal({ list: [1, , 3] }).path).toBe('$.list[1]');
    expect(refusal({ when: new Date(0) }).path).toBe('$.when');
    expect(refusal(undefined).path).toBe('$');
    const cyclic: Record<string, unknown> = { inner: {} };
    (cyclic.inner as Record<string, unknown>).back = cyclic;
    expect(refusal(cyclic)).toMatchObject({
      path: '$.inner.back',
      message: expect.stringContaining('cycle') as unknown,
    });
    const withGetter = Object.defineProperty({ ok: 1 }, 'computed', { get: () => 2, enumerable: true });
    expect(refusal({ x: withGetter }).path).toBe('$.x.computed');
  });

  it('accepts an object met twice that is not its own ancestor', () => {
    const shared = { n: 1 };
    expect(toFrozenJson({ a: shared, b: [shared, shared] })).toStrictEqual({
      a: { n: 1 },
      b: [{ n: 1 }, { n: 1 }],
    });
  });

  it('keeps an own "__proto__" key as data, never as the prototype', () => {
    const value: unknown = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}');
    const copied = toFrozenJson(value) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copied)).toBe(Object.prototype);
    expect(Object.keys(copied)).toEqual(['__proto__', 'a']);
    expect(Object.getOwnPropertyDescriptor(copied, '__proto__')?.value).toStrictEqual({ polluted: true });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(JSON.stringify(copied)).toBe('{"__proto__":{"polluted":true},"a":1}');
  });
});
