import { Lexer, type Token, type Tokens } from 'marked';
import { newSessionHeader, SessionId } from '@strand/session';
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown-format.js';
import { documentOf } from './test-document.js';

/** Every token of the Markdown, depth first (details blocks are HTML, their fences stay tokens). */
function tokens(markdown: string): Token[] {
  const all: Token[] = [];
  const walk = (list: readonly Token[]): void => {
    for (const token of list) {
      all.push(token);
      if ('tokens' in token && Array.isArray(token.tokens)) walk(token.tokens);
    }
  };
  walk(new Lexer().lex(markdown));
  return all;
}
const codeBlocks = (markdown: string): Tokens.Code[] =>
  tokens(markdown).filter((t): t is Tokens.Code => t.type === 'code');

const twoTurns = documentOf(
  [
    ['model/selection', { provider: 'anthropic', model: 'claude-sonnet-4-5' }],
    ['turn/start', {}],
    ['user/message', { content: 'List the **files**', author: 'human' }],
    ['step/start', {}],
    [
      'assistant/message',
      { content: 'Looking.', toolCalls: [{ id: 'c1', name: 'Bash', arguments: '{"command":"ls"}' }] },
    ],
    ['tool/call', { callId: 'c1', name: 'Bash', arguments: '{"command":"ls"}' }],
    ['tool/result', { callId: 'c1', content: 'a.txt\n```\nb.txt' }],
    ['step/end', {}],
    ['turn/end', { reason: 'completed' }],
    ['turn/start', {}],
    [
      'user/message',
      {
        content: [
          { type: 'text', text: 'And this?' },
          { type: 'image', ref: 'sha256-abc' },
        ],
        author: 'human',
      },
    ],
    ['subagent/descriptor', { anything: 1 }],
    ['tool/result', { callId: 'orphan', content: 'no such file', isError: true, code: 'ENOENT' }],
    ['turn/end', { reason: 'error', error: 'model overloaded' }],
  ],
  { title: 'Files | in the shop' },
);

describe('renderMarkdown', () => {
  it('gives the title, a table of facts, and a section per turn', () => {
    const md = renderMarkdown(twoTurns);
    const all = tokens(md);
    const headings = all.filter((t): t is Tokens.Heading => t.type === 'heading');
    expect(headings.map((h) => [h.depth, h.text])).toEqual([
      [1, 'Files | in the shop'],
      [2, 'Turn 1 · 2026-12-05 09:31 UTC'],
      [2, 'Turn 2 · 2026-12-05 09:39 UTC'],
    ]);
    const table = all.find((t): t is Tokens.Table => t.type === 'table');
    const rows = Object.fromEntries(table!.rows.map((r) => [r[0]!.text, r[1]!.text]));
    expect(rows).toMatchObject({
      Session: '`s-export-1`',
      Harness: 'Strand',
      Project: '`/home/ana/shop`',
      Model: '`anthropic/claude-sonnet-4-5`',
      Events: '0–13',
    });
  });

  it('quotes tool arguments and results exactly, the result folded under its call', () => {
    const md = renderMarkdown(twoTurns);
    const blocks = codeBlocks(md);
    expect(blocks.map((b) => [b.lang, b.text])).toEqual([
      ['json', '{\n  "command": "ls"\n}'],
      ['text', 'a.txt\n```\nb.txt'],
      ['text', 'no such file'],
    ]);
    // The result sits in a <details> right after its call, before the next turn.
    const call = md.indexOf('**Tool call** · `Bash`');
    const details = md.indexOf('<details>', call);
    expect(call).toBeGreaterThan(0);
    expect(details).toBeGreaterThan(call);
    expect(details).toBeLessThan(md.indexOf('## Turn 2'));
    expect(md).toContain('<summary>Result · failed (ENOENT)</summary>');
  });

  it('says what it could not carry, once per kind, and how a turn ended when it failed', () => {
    const md = renderMarkdown(twoTurns);
    expect(md).toContain('_[image sha256-abc]_');
    expect(md).toContain('_1 image is named by attachment, not embedded');
    expect(md).toContain("_1 `subagent/descriptor` record not shown (Strand's own");
    expect(md).toContain('_The turn ended: error — model overloaded._');
    expect(md).not.toContain('The turn ended: completed');
  });

  it('names the session by its id without a title, and says when a turn was still running', () => {
    const md = renderMarkdown(
      documentOf([
        ['turn/start', {}],
        ['user/message', { content: 'hi', author: 'human' }],
      ]),
    );
    expect(md.startsWith('# Session s-export-1\n')).toBe(true);
    expect(md).toContain('0–1 (a turn was running: this is what was durable when exported)');
  });

  it('labels another harness and an empty log', () => {
    const header = newSessionHeader({
      id: SessionId('claude-code-abc'),
      createdAt: 0,
      source: { harness: 'claude-code', sourceId: 'abc' },
    });
    const md = renderMarkdown(documentOf([], { header }));
    expect(md).toContain('| Harness | Claude Code |');
    expect(md).toContain('| Events | none |');
  });

  it('is deterministic: the same document gives the same bytes', () => {
    expect(renderMarkdown(twoTurns)).toBe(
      renderMarkdown(
        documentOf(
          twoTurns.events.map((e) => [e.type, e.data]),
          { title: twoTurns.title! },
        ),
      ),
    );
  });
});
