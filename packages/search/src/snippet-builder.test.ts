import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HIGHLIGHT_END as E, HIGHLIGHT_START as S, SNIPPET_MAX_CHARS } from './snippet.js';
import { buildSnippet } from './snippet-builder.js';
import { queryPhrases } from './text-tokens.js';

const snippet = (text: string, ...terms: string[]): string | undefined =>
  buildSnippet(text, queryPhrases(terms));

describe('buildSnippet', () => {
  it('highlights every occurrence of the query terms, folding case and diacritics', () => {
    expect(snippet('The Crème brûlée, and CREME again', 'creme')).toBe(
      `The ${S}Crème${E} brûlée, and ${S}CREME${E} again`,
    );
  });

  it('highlights a term the tokenizer splits as one phrase', () => {
    expect(snippet('see foo-bar here, foo alone, bar alone', 'foo.bar')).toBe(
      `see ${S}foo-bar${E} here, foo alone, bar alone`,
    );
  });

  it('returns undefined unless every term occurs (FTS5 decides then)', () => {
    expect(snippet('only apples here', 'apples', 'pears')).toBeUndefined();
    expect(snippet('nothing', '-')).toBeUndefined();
  });

  it('cuts long text around the best window, on token boundaries, with ellipses', () => {
    const words = Array.from({ length: 400 }, (_, i) => `w${i}`);
    words[200] = 'target';
    const out = snippet(words.join(' '), 'target')!;
    expect(out.length).toBeLessThanOrEqual(SNIPPET_MAX_CHARS);
    expect(out).toMatch(/^…w\d+ /);
    expect(out).toMatch(/ w\d+…$/);
    expect(out).toContain(`${S}target${E}`);
  });

  it('prefers the window holding the most distinct terms', () => {
    const filler = Array.from({ length: 100 }, (_, i) => `f${i}`).join(' ');
    const out = snippet(`alpha ${filler} alpha beta ${filler}`, 'alpha', 'beta')!;
    expect(out).toContain(`${S}alpha${E} ${S}beta${E}`);
  });

  it('stays within the bound with balanced markers for any text', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constant('needle'), fc.string({ maxLength: 30 })), { maxLength: 80 }),
        (parts) => {
          const out = snippet(parts.join(' '), 'needle');
          if (out === undefined) return;
          expect(out.length).toBeLessThanOrEqual(SNIPPET_MAX_CHARS);
          expect(out.split(S).length).toBe(out.split(E).length);
          expect(out).toContain(S);
        },
      ),
    );
  });
});
