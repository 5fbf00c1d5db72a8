import fc from 'fast-check';
import { Lexer, type Tokens } from 'marked';
import { describe, expect, it } from 'vitest';
import { fenced, inlineCode } from './markdown-text.js';

// Markdown readers normalise line endings and NUL; the export's texts are quoted as the log holds
// them, so the property is over text without those.
const text = fc
  .array(
    fc.oneof(fc.constantFrom('`', '``', '```', '~~~', '\n', ' ', '\t', '>', '#', '|', '<', '-'), fc.string()),
    {
      maxLength: 12,
    },
  )
  .map((parts) => parts.join('').replace(/[\r\0]/g, ''));

describe('Markdown quoting', () => {
  it('a fenced block gives back exactly the text it holds, whatever it contains', () => {
    fc.assert(
      fc.property(text, (t) => {
        const tokens = new Lexer().lex(fenced(t, 'text'));
        const code = tokens.filter((token) => token.type !== 'space');
        expect(code).toHaveLength(1);
        expect(code[0]!.type).toBe('code');
        // Readers differ on the line ends before the closing fence (CommonMark keeps one, marked
        // keeps them only after a blank line); everything before them is exact.
        const trimmed = (s: string): string => s.replace(/\n+$/, '');
        expect(trimmed((code[0] as Tokens.Code).text)).toBe(trimmed(t));
      }),
      { numRuns: 500 },
    );
  });

  it('inline code gives back a one-line text exactly', () => {
    const line = text.map((t) => t.replace(/\n/g, ' ')).filter((t) => t.trim() !== '');
    fc.assert(
      fc.property(line, (t) => {
        const paragraph = new Lexer().lex(`x ${inlineCode(t)} y`)[0] as Tokens.Paragraph;
        const spans = paragraph.tokens.filter((token) => token.type === 'codespan');
        expect(spans).toHaveLength(1);
        expect((spans[0] as Tokens.Codespan).text).toBe(t);
      }),
      { numRuns: 500 },
    );
  });
});
