import { describe, expect, it } from 'vitest';
import { tsqueryPieces, tsquerySql, tsvectorSource } from './ts-text.js';

describe('PostgreSQL text search input', () => {
  it('hands the parser folded plain words, so paths, compounds and accents match like on SQLite', () => {
    expect(tsvectorSource('Read src/Ocelot.ts: Crème-Brûlée, foo_bar!')).toBe(
      'read src ocelot ts creme brulee foo bar',
    );
  });

  it('turns query terms into phrases of folded words and drops terms without a word', () => {
    expect(tsqueryPieces(['Foo-Bar', '&', 'NEAR(x', "o'clock", '<->'])).toEqual([
      'foo bar',
      'near x',
      'o clock',
    ]);
  });

  it('generates only placeholders: user text never becomes SQL', () => {
    expect(tsquerySql(3)).toBe(
      'SELECT (strand_search_phrase($1) && strand_search_phrase($2) && strand_search_phrase($3))::text AS q',
    );
  });
});
