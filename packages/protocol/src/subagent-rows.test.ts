import { describe, expect, it } from 'vitest';
import { isDirectChildRow } from './methods.js';

describe('isDirectChildRow', () => {
  it('a readable child at depth 1 (or a children listing, without depth) is written; deeper or damaged rows are named', () => {
    expect(isDirectChildRow({ kind: 'child' })).toBe(true);
    expect(isDirectChildRow({ kind: 'child', depth: 1 })).toBe(true);
    expect(isDirectChildRow({ kind: 'child', depth: 2 })).toBe(false);
    expect(isDirectChildRow({ kind: 'diagnostic', depth: 1 })).toBe(false);
    expect(isDirectChildRow({ kind: 'diagnostic' })).toBe(false);
  });
});
