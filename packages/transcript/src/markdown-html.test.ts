import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { highlightCode } from './highlight.js';
import { markdownHtml } from './markdown-html.js';

const live = markdownHtml({ copyButton: true, links: 'live', highlight: highlightCode });
const asText = markdownHtml({ copyButton: false, links: 'text', highlight: highlightCode });

describe('markdownHtml', () => {
  it('escapes raw HTML instead of interpreting it', () => {
    const html = live('before <script>alert(1)</script> <img src=x onerror=alert(1)> after');
    expect(html).not.toMatch(/<script|<img/);
    expect(html).toContain('&#60;script&#62;');
  });

  it('highlights a known language and labels the block; the copy button only when asked', () => {
    const block = '```ts\nconst a: number = 1;\n```';
    expect(live(block)).toContain('class="hljs language-ts"');
    expect(live(block)).toContain('data-testid="copy-code"');
    expect(asText(block)).not.toContain('<button');
    expect(asText(block)).toContain('<span>ts</span>');
  });

  it('draws a block its highlighter does not know (or has not loaded) as escaped plain text', () => {
    const block = '```ts\nif (a < b) return;\n```';
    const asked: string[] = [];
    const later = markdownHtml({
      copyButton: false,
      links: 'live',
      highlight: (_code, language) => {
        asked.push(language);
        return undefined;
      },
    });
    const none = markdownHtml({ copyButton: false, links: 'live', highlight: null });
    for (const html of [later(block), none(block)]) {
      expect(html).toContain('<code class="hljs">if (a &#60; b) return;');
      expect(html).toContain('data-language="ts"');
      expect(html).not.toContain('hljs-keyword');
    }
    expect(asked).toEqual(['ts']);
    // A fence without a language is never offered to the highlighter.
    later('```\nplain\n```');
    expect(asked).toEqual(['ts']);
  });

  it('keeps links live for the web, and as words for a file', () => {
    const text =
      'See [the docs](https://example.test/docs), <https://example.test/x> and ![chart](https://example.test/c.png)';
    expect(live(text)).toContain('href="https://example.test/docs"');
    const file = asText(text);
    expect(file).toContain('the docs (https://example.test/docs)');
    expect(file).toContain('[image “chart”: https://example.test/c.png]');
    expect(file).not.toMatch(/<[a-z][^>]*\s(href|src)\s*=/i);
  });

  it('a file never points anywhere, whatever the text', () => {
    const piece = fc.constantFrom(
      '[a](http://x.test)',
      '![i](http://x.test/i.png)',
      '<a href="http://x">',
      'http://auto.test',
      '<img src="//x">',
      'www.example.test',
      '`code`',
      '\n\n',
      ' ',
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(piece, fc.string()), { maxLength: 12 }), (parts) => {
        expect(asText(parts.join(''))).not.toMatch(/<[a-z][^>]*\s(href|src)\s*=/i);
      }),
    );
  });
});
