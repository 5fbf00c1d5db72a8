import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderExport } from './formats.js';
import { renderHtml } from './html-format.js';
import { documentOf } from './test-document.js';

/** Every `src`/`href` of a tag the file holds (text that merely reads `src=` is escaped). */
function addresses(html: string): string[] {
  return [...html.matchAll(/<[a-z][^>]*?\s(?:src|href)\s*=\s*"([^"]*)"/gi)].map((m) => m[1]!);
}

const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

const session = documentOf(
  [
    ['turn/start', {}],
    [
      'user/message',
      {
        content: [
          { type: 'text', text: 'Look at [this](https://example.test) <b>now</b>' },
          { type: 'image', ref: 'img-1' },
          { type: 'image', ref: 'img-missing' },
        ],
        author: 'human',
      },
    ],
    [
      'assistant/message',
      {
        content: 'Here:\n\n```ts\nconst x = 1;\n```',
        toolCalls: [{ id: 'c1', name: 'Bash', arguments: '{"command":"ls"}' }],
      },
    ],
    ['tool/call', { callId: 'c1', name: 'Bash', arguments: '{"command":"ls"}' }],
    ['tool/result', { callId: 'c1', content: '\u001b[31mred.txt\u001b[0m', isError: true, code: 'EXIT_1' }],
    ['turn/end', { reason: 'completed' }],
    ['turn/start', {}],
    ['session/command', { name: 'compact' }],
    ['session/command-output', { text: 'Compacted.', stream: 'stdout' }],
    ['x/newer', { anything: '<script>' }],
    ['turn/end', { reason: 'error', error: 'overloaded' }],
  ],
  { title: 'Files <and> images' },
);

describe('renderHtml', () => {
  it('is one self-contained page: styles inline, images as data URIs, nothing else addressed, no script', () => {
    const html = renderHtml({
      ...session,
      attachments: new Map([['img-1', { mediaType: 'image/png', base64: PNG }]]),
    });
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('<style>');
    expect(html).not.toMatch(/<script|<link|<iframe/i);
    expect(addresses(html)).toEqual([`data:image/png;base64,${PNG}`]);
    expect(html).toContain('this (https://example.test)');
    expect(html).toContain('[image img-missing]');
    expect(html).toContain('&#60;b&#62;now&#60;/b&#62;');
    expect(html).toContain(`<title>Files &#60;and&#62; images</title>`);
  });

  it('draws every turn, the tool card with its failed result (escapes stripped), the command, unknown records and a failed turn', () => {
    const html = renderHtml(session);
    expect([...html.matchAll(/<h2 class="turn" id="turn-(\d+)">/g)].map((m) => m[1])).toEqual(['1', '2']);
    expect(html).toContain('<span class="tool-name">Bash</span>');
    expect(html).toContain('<span class="failed">failed</span>');
    expect(html).toContain('Result — failed (EXIT_1)</div><pre>red.txt</pre>');
    expect(html).toContain('class="hljs language-ts"');
    expect(html).toContain('<code class="line">/compact</code>');
    expect(html).toContain('Compacted.');
    expect(html).toContain('<code>x/newer</code>');
    expect(html).toContain('The turn ended: error — overloaded');
  });

  it('never embeds what is not a raster image', () => {
    const html = renderHtml({
      ...session,
      attachments: new Map([['img-1', { mediaType: 'image/svg+xml', base64: PNG }]]),
    });
    expect(addresses(html)).toEqual([]);
    expect(html).toContain('[image img-1]');
  });

  it('reads the images a log references, once each, through the reader', async () => {
    const asked: string[] = [];
    const out = await renderExport('html', session, (ref) => {
      asked.push(ref);
      return Promise.resolve(ref === 'img-1' ? { mediaType: 'image/png', base64: PNG } : undefined);
    });
    expect(asked).toEqual(['img-1', 'img-missing']);
    expect(addresses(out.text)).toEqual([`data:image/png;base64,${PNG}`]);
    expect(out).toMatchObject({ fileName: 'strand-s-export-1.html', mediaType: 'text/html; charset=utf-8' });
  });

  it('whatever the messages say, the file addresses nothing and runs nothing', () => {
    const piece = fc.constantFrom(
      '[a](http://x.test)',
      '![i](http://x.test/i.png)',
      '<a href="http://x">',
      '<script>alert(1)</script>',
      'http://auto.test',
      '<img src=//x>',
      '`c`',
      '\n\n',
      '```html\n<iframe src="http://x">\n```',
    );
    const text = fc.array(fc.oneof(piece, fc.string()), { maxLength: 8 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, text, fc.string(), (prompt, reply, result) => {
        const html = renderHtml(
          documentOf([
            ['turn/start', {}],
            ['user/message', { content: prompt, author: 'human' }],
            ['assistant/message', { content: reply }],
            ['tool/result', { callId: 'lone', content: result }],
            ['turn/end', { reason: 'completed' }],
          ]),
        );
        expect(addresses(html)).toEqual([]);
        expect(html).not.toMatch(/<script|<iframe|<img/i);
      }),
    );
  });
});
