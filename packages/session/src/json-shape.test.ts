import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isRecord, jsonEqual } from './json-shape.js';

/** Key order of every object reversed: the same JSON value, another layout. */
function reordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reordered);
  if (!isRecord(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .reverse()
      .map((key) => [key, reordered(value[key])]),
  );
}

/** Canonical text of a JSON value (sorted keys): equal exactly when the values are. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (!isRecord(value)) return JSON.stringify(value);
  return `{${Object.keys(value)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`)
    .join(',')}}`;
}

const json = fc.jsonValue({ maxDepth: 3 });

describe('jsonEqual', () => {
  it('holds between a value and its copy with every key order reversed', () => {
    fc.assert(fc.property(json, (value) => jsonEqual(value, reordered(structuredClone(value)))));
  });

  it('agrees with comparing canonical texts, for any two values', () => {
    fc.assert(fc.property(json, json, (a, b) => jsonEqual(a, b) === (canonical(a) === canonical(b))));
  });

  it('tells an array from an object with the same entries, and a missing key from an undefined-free one', () => {
    expect(jsonEqual([1], { 0: 1 })).toBe(false);
    expect(jsonEqual({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(jsonEqual({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(true);
  });
});

describe('isRecord', () => {
  it('is true for objects only: not null, arrays or scalars', () => {
    expect([{}, { a: 1 }].map(isRecord)).toEqual([true, true]);
    expect([null, [], 'x', 1, true, undefined].map(isRecord)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});
