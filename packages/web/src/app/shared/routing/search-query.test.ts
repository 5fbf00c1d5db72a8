import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readSearchQuery, writeSearchQuery } from './search-query.js';

describe('search query in the address', () => {
  it('round-trips any query and keeps the other parameters', () => {
    fc.assert(
      fc.property(fc.string(), fc.option(fc.nat(), { nil: undefined }), (query, seq) => {
        const before = seq === undefined ? '' : `?seq=${seq}`;
        const written = writeSearchQuery(before, query);
        expect(readSearchQuery(written)).toBe(query);
        expect(new URLSearchParams(written).get('seq')).toBe(seq === undefined ? null : String(seq));
      }),
    );
  });

  it('leaves no q= for the empty query', () => {
    expect(writeSearchQuery('?q=old&cwd=%2Fa', '')).toBe('?cwd=%2Fa');
    expect(writeSearchQuery('?q=old', '')).toBe('');
  });
});
