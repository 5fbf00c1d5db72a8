import { Marked, type Tokens } from 'marked';

/**
 * Highlighted HTML of `code` in `language` (a fence's first word), or `undefined` when it does not
 * know the language (or has not loaded it yet): the block is then shown escaped, as plain text.
 * `highlightCode` (`@strand/transcript/highlight`) is highlight.js's common languages; it is
 * passed in, not imported here, so the web can load its 150 KB when a code block first needs it.
 */
export type CodeHighlighter = (code: string, language: string) => string | undefined;

/**
 * How message text becomes HTML, described once for every place that draws it: the web's
 * transcript (which sanitizes the result again with DOMPurify in the browser) and the HTML export
 * (a file opened anywhere, with scripts off and nothing loaded from the network).
 */
export interface MarkdownHtmlOptions {
  /** A "Copy" button in each code block's bar (the web wires it; a file has no scripts). */
  readonly copyButton: boolean;
  /**
   * `live`: links are links. `text`: a link is its text and its address in plain words, and an
   * image is named, never loaded — an exported file points at nothing on the network.
   */
  readonly links: 'live' | 'text';
  /** Highlights a fenced block's code; `null`: no highlighting (every block as plain text). */
  readonly highlight: CodeHighlighter | null;
}

/** Each character HTML reads as markup, as its numeric reference. */
const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&#38;',
  '<': '&#60;',
  '>': '&#62;',
  '"': '&#34;',
  "'": '&#39;',
};
const MARKUP = /[&<>"']/;
const MARKUP_ALL = /[&<>"']/g;

/** `text` safe inside HTML text or a quoted attribute (most text has nothing to escape: returned as is). */
export function escapeHtml(text: string): string {
  return MARKUP.test(text) ? text.replace(MARKUP_ALL, (c) => ESCAPES[c]!) : text;
}

/**
 * A renderer of GitHub-flavoured Markdown (tables, task lists, strikethrough, autolinks) with
 * syntax-highlighted code blocks. Raw HTML in a message is escaped, never interpreted: what a
 * model or a person wrote is shown, not run.
 */
export function markdownHtml(options: MarkdownHtmlOptions): (text: string) => string {
  const marked = new Marked({ gfm: true, breaks: false, async: false });
  marked.use({
    renderer: {
      code({ text, lang }: Tokens.Code): string {
        const language = (lang ?? '').trim().split(/\s+/)[0] ?? '';
        const highlighted =
          language === '' || options.highlight === null ? undefined : options.highlight(text, language);
        const known = highlighted !== undefined;
        const body = highlighted ?? escapeHtml(text);
        const label = language === '' ? 'text' : escapeHtml(language);
        const copy = options.copyButton
          ? `<button type="button" class="strand-copy" data-testid="copy-code">Copy</button>`
          : '';
        return (
          `<div class="strand-code" data-testid="code-block" data-language="${label}">` +
          `<div class="strand-code-bar"><span>${label}</span>${copy}</div>` +
          `<pre><code class="hljs${known ? ` language-${label}` : ''}">${body}</code></pre></div>`
        );
      },
      html({ text }: Tokens.HTML | Tokens.Tag): string {
        return escapeHtml(text);
      },
      ...(options.links === 'live'
        ? {}
        : {
            link(
              this: { parser: { parseInline(tokens: Tokens.Generic[]): string } },
              token: Tokens.Link,
            ): string {
              const label = this.parser.parseInline(token.tokens);
              return token.text === token.href
                ? `<span class="strand-link">${escapeHtml(token.href)}</span>`
                : `<span class="strand-link">${label} (${escapeHtml(token.href)})</span>`;
            },
            image({ href, text }: Tokens.Image): string {
              return `<span class="strand-image-ref">[image${text === '' ? '' : ` “${escapeHtml(text)}”`}: ${escapeHtml(href)}]</span>`;
            },
          }),
    },
  });
  return (text) => marked.parse(text) as string;
}
