import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readListFilter, writeListFilter } from './list-filter-params.js';

describe('list filter parameters', () => {
  it('reads ?cwd= and ?harness=, an absent or empty one meaning all', () => {
    expect(readListFilter('?cwd=%2Fproj%2Fa&harness=codex')).toEqual({ cwd: '/proj/a', harness: 'codex' });
    expect(readListFilter('')).toEqual({ cwd: null, harness: null });
    expect(readListFilter('?cwd=&seq=4')).toEqual({ cwd: null, harness: null });
  });
  it('writes only its own parameters and keeps the others', () => {
    expect(writeListFilter('?seq=4', { cwd: '/p q', harness: null })).toBe('?seq=4&cwd=%2Fp+q');
    expect(writeListFilter('?cwd=%2Fa&seq=4&harness=codex', { cwd: null, harness: null })).toBe('?seq=4');
    expect(writeListFilter('?cwd=%2Fa', { cwd: null, harness: null })).toBe('');
  });
  it('reads back what it wrote, for any values', () => {
    const value = fc.option(fc.string({ minLength: 1 }), { nil: null });
    fc.assert(
      fc.property(value, value, fc.constantFrom('', '?seq=7', '?token=x&seq=1'), (cwd, harness, search) => {
        const written = writeListFilter(search, { cwd, harness });
        expect(readListFilter(written)).toEqual({ cwd, harness });
        expect(new URLSearchParams(written).get('seq')).toBe(new URLSearchParams(search).get('seq'));
      }),
    );
  });
});
