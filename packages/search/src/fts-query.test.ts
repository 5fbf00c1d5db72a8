import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSearchIndexError } from './errors.js';
import { literalMatchExpression, MAX_QUERY_TERMS, queryTerms } from './fts-query.js';

describe('literalMatchExpression', () => {
  it('quotes every whitespace-separated term and doubles inner quotes', () => {
    expect(literalMatchExpression('  hello   world ')).toBe('"hello" "world"');
    expect(literalMatchExpression('a" OR b')).toBe('"a" "OR b"');
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

describe('queryTerms', () => {
  it('keeps a quoted run as one phrase term and every other word as its own term', () => {
    expect(queryTerms('fix "the  flaky\ttest" now')).toEqual(['fix', 'the flaky test', 'now']);
    expect(literalMatchExpression('fix "the flaky test"')).toBe('"fix" "the flaky test"');
    expect(queryTerms('say"hi there"x')).toEqual(['say', 'hi there', 'x']);
  });

  it('runs a quote left open to the end (a phrase being typed) and drops empty phrases', () => {
    expect(queryTerms('"refactor the')).toEqual(['refactor the']);
    expect(queryTerms('a "" b " "')).toEqual(['a', 'b']);
    expect(queryTerms('"')).toEqual([]);
  });

  // The seed is the run's (vitest.config.ts: printed, replayed from STRAND_TEST_SEED).
  const queryText = fc.string({ unit: fc.constantFrom('a', 'b', ' ', '"', '\t', 'é', '-') });

  it('never yields a term with a quote, an empty term or a term with outer or double whitespace', () => {
    fc.assert(
      fc.property(queryText, (query) => {
        for (const term of queryTerms(query)) {
          expect(term).not.toContain('"');
          expect(term).toBe(term.trim());
          expect(term.length).toBeGreaterThan(0);
          expect(term).not.toMatch(/\s\s|[\t\n]/u);
        }
      }),
    );
  });

  it('keeps every word, in order, and splits like whitespace when there is no quote', () => {
    fc.assert(
      fc.property(queryText, (query) => {
        const words = query
          .replaceAll('"', ' ')
          .split(/\s+/u)
          .filter((w) => w.length > 0);
        expect(queryTerms(query).flatMap((term) => term.split(' '))).toEqual(words);
        if (!query.includes('"')) expect(queryTerms(query)).toEqual(words);
      }),
    );
  });
});
