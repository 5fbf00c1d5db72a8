import { describe, expect, it } from 'vitest';
import { isSearchIndexError } from './errors.js';
import { literalMatchExpression, MAX_QUERY_TERMS } from './fts-query.js';

describe('literalMatchExpression', () => {
  it('quotes every whitespace-separated term and doubles inner quotes', () => {
    expect(literalMatchExpression('  hello   world ')).toBe('"hello" "world"');
    expect(literalMatchExpression('"a" OR b')).toBe('"""a""" "OR" "b"');
    expect(literalMatchExpression('NEAR(a b) foo* -x col:val ^y')).toBe(
      '"NEAR(a" "b)" "foo*" "-x" "col:val" "^y"',
    );
  });

  it('refuses empty, whitespace-only and oversized queries as invalid', () => {
    for (const query of ['', ' ', '\n\t\u00a0']) {
      expect(() => literalMatchExpression(query)).toThrow(
        expect.objectContaining({ code: 'SEARCH_INVALID_QUERY' }),
      );
    }
    const tooMany = Array.from({ length: MAX_QUERY_TERMS + 1 }, (_, i) => `t${i}`).join(' ');
    expect(() => literalMatchExpression(tooMany)).toThrow(
      expect.objectContaining({ code: 'SEARCH_INVALID_QUERY' }),
    );
    try {
      literalMatchExpression('x'.repeat(1_001));
    } catch (error) {
      expect(isSearchIndexError(error, 'SEARCH_INVALID_QUERY')).toBe(true);
    }
  });
});
