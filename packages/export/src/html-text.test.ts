import { markdownHtml, truncate } from '@strand/transcript';
import { highlightCode } from '@strand/transcript/highlight';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { argumentsPreview, plainParagraphHtml } from './html-text.js';

/** The renderer the HTML export uses for message text. */
const marked = markdownHtml({ copyButton: false, links: 'text', highlight: highlightCode });

// Words and the characters a plain paragraph may hold, next to ones that make Markdown of it.
const piece = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom('word', 'Word', 'a', 'I', 'x1', '42', 'w', 'ww', 'www', 'http', 'mailto'),
  },
  {
    weight: 6,
    arbitrary: fc.constantFrom(' ', '  ', '.', ',', ';', ':', '?', '!', '(', ')', "'", '1.', '2)'),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '\n',
      '\n\n',
      '-',
      '*',
      '_',
      '#',
      '>',
      '<',
      '&',
      '"',
      '[',
      ']',
      '`',
      '~',
      '|',
      '=',
      '/',
      '@',
      '\\',
      '\t',
      'é',
      '+',
    ),
  },
);
const text = fc.array(piece, { maxLength: 30 }).map((parts) => parts.join(''));

describe('plainParagraphHtml', () => {
  it('gives exactly what markdownHtml gives, for every text it takes', () => {
    let taken = 0;
    fc.assert(
      fc.property(text, (t) => {
        const fast = plainParagraphHtml(t);
        if (fast === undefined) return;
        taken++;
        expect(fast).toBe(marked(t));
      }),
      { numRuns: 3_000 },
    );
    // The property said something: plenty of the texts were plain paragraphs.
    expect(taken).toBeGreaterThan(300);
  });

  it('takes a paragraph of words, and leaves Markdown, line breaks and addresses to the parser', () => {
    expect(plainParagraphHtml("It's done: see (a), then b.")).toBe(
      '<p>It&#39;s done: see (a), then b.</p>\n',
    );
    for (const other of ['1. a list', 'a *word*', 'line\nbreak', 'visit www.example.test', ' lead', ''])
      expect(plainParagraphHtml(other)).toBeUndefined();
  });
});

describe('argumentsPreview', () => {
  it('is the arguments with white space collapsed, cut at the length, whatever their size', () => {
    const white = fc.constantFrom(' ', '  ', '\n', '\t \n', '\u00a0', '\u2028', '\r\n');
    const args = fc
      .array(
        fc.oneof(
          white,
          fc.nat({ max: 300 }).map((n) => ' '.repeat(n)),
          fc.string({ maxLength: 12 }),
          fc.string({ unit: 'grapheme', maxLength: 4 }),
        ),
        {
          maxLength: 200,
        },
      )
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(args, fc.integer({ min: 1, max: 130 }), (text, max) => {
        expect(argumentsPreview(text, max)).toBe(truncate(text.replace(/\s+/g, ' '), max));
      }),
      { numRuns: 1_000 },
    );
  });
});
