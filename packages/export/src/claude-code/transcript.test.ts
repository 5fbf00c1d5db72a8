import { newSessionHeader, SessionId } from '@strand/session';
import { describe, expect, it } from 'vitest';
import { documentOf, imageTurn, jsonLines, PNG_1PX } from '../test-document.js';
import { claudeProjectSlug, claudeSessionUuid, claudeToolUseId, derivedUuid } from './ids.js';
import {
  ClaudeExportError,
  renderClaudeTranscript,
  STRAND_EXPORT_MARKER,
  strandExportOf,
} from './transcript.js';

const twoTurns = documentOf(
  [
    ['model/selection', { provider: 'anthropic', model: 'claude-sonnet-4-5' }],
    ['turn/start', {}],
    ['user/message', { content: 'List the files', author: 'human' }],
    ['step/start', {}],
    [
      'assistant/message',
      { content: 'Looking.', toolCalls: [{ id: 'c1', name: 'Bash', arguments: '{"command":"ls"}' }] },
    ],
    ['tool/call', { callId: 'c1', name: 'Bash', arguments: '{"command":"ls"}' }],
    ['tool/result', { callId: 'c1', content: 'a.txt' }],
    ['step/end', {}],
    ['step/start', {}],
    ['assistant/message', { content: 'One file: a.txt.' }],
    ['step/end', {}],
    ['turn/end', { reason: 'completed' }],
    ['turn/start', {}],
    ['user/message', { content: 'Thanks', author: 'human' }],
    ['subagent/descriptor', { anything: 1 }],
    ['tool/call', { callId: 'c2', name: 'Bash', arguments: 'not json' }],
    ['turn/end', { reason: 'aborted' }],
  ],
  { title: 'Files' },
);

const records = jsonLines;

describe('renderClaudeTranscript', () => {
  it('writes prompts, replies with their tool calls, results, the model and the title, chained', () => {
    const out = renderClaudeTranscript(twoTurns);
    const lines = records(out.text);
    expect(lines.map((r) => r.type)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
      'custom-title',
    ]);
    expect(lines[0]!.message).toEqual({ role: 'user', content: 'List the files' });
    expect(lines[1]!.message).toMatchObject({
      model: 'claude-sonnet-4-5',
      content: [
        { type: 'text', text: 'Looking.' },
        { type: 'tool_use', id: 'c1', name: 'Bash', input: { command: 'ls' } },
      ],
      stop_reason: 'tool_use',
    });
    expect(lines[2]!.message).toEqual({
      role: 'user',
      content: [{ tool_use_id: 'c1', type: 'tool_result', content: 'a.txt', is_error: false }],
    });
    // A call with arguments that are not an object, and no result: kept, answered with an error.
    expect((lines[5]!.message as { content: unknown[] }).content).toEqual([
      { type: 'tool_use', id: 'c2', name: 'Bash', input: { arguments: 'not json' } },
    ]);
    expect(lines[6]!.message).toMatchObject({ content: [{ tool_use_id: 'c2', is_error: true }] });
    expect(lines[7]).toEqual({ type: 'custom-title', customTitle: 'Files', sessionId: out.sessionId });
    const chain = lines.slice(0, 7);
    expect(chain[0]!.parentUuid).toBeNull();
    for (let i = 1; i < chain.length; i++) expect(chain[i]!.parentUuid).toBe(chain[i - 1]!.uuid);
    for (const r of chain)
      expect(r).toMatchObject({ sessionId: out.sessionId, cwd: '/home/ana/shop', isSidechain: false });
    expect(new Set(chain.map((r) => r.uuid)).size).toBe(chain.length);
    expect(out.leftOut).toEqual([
      '1 × `subagent/descriptor` record not carried',
      '1 × tool call without a result (an error result written in its place) not carried',
    ]);
  });

  it('marks the first line with the origin session and the cut', () => {
    const first = records(renderClaudeTranscript(twoTurns).text)[0]!;
    expect(first[STRAND_EXPORT_MARKER]).toEqual({
      origin: 's-export-1',
      cut: 16,
      running: false,
      digest: expect.stringMatching(/^[0-9a-f]{64}$/),
      bytes: expect.any(Number),
    });
  });

  it('knows its own export byte for byte, and nothing else: not one Claude Code has continued', () => {
    const { text } = renderClaudeTranscript(twoTurns);
    expect(strandExportOf(text)).toMatchObject({ origin: 's-export-1', cut: 16 });
    const resumed = `${text}${JSON.stringify({ type: 'user', message: { role: 'user', content: 'More' } })}\n`;
    expect(strandExportOf(resumed)).toBeUndefined();
    expect(strandExportOf(text.replace('a.txt', 'b.txt'))).toBeUndefined();
    expect(strandExportOf('{"type":"user"}\n')).toBeUndefined();
    expect(strandExportOf('not json\n')).toBeUndefined();
    expect(strandExportOf('')).toBeUndefined();
  });

  it('files the session under the cwd slug, by an id derived from the Strand id: the same bytes twice', () => {
    const a = renderClaudeTranscript(twoTurns);
    expect(renderClaudeTranscript(twoTurns)).toEqual(a);
    expect(a.projectFolder).toBe('-home-ana-shop');
    expect(a.fileName).toBe(`${a.sessionId}.jsonl`);
    expect(a.sessionId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(claudeSessionUuid('other')).not.toBe(a.sessionId);
    expect(derivedUuid('x')).toBe(derivedUuid('x'));
  });

  it('keeps a tool call id the Messages API accepts, and derives one for any other', () => {
    expect(claudeToolUseId('toolu_01-Ab')).toBe('toolu_01-Ab');
    const odd = claudeToolUseId('call_1|fc_2');
    expect(odd).toMatch(/^toolu_strand_[0-9a-f]{32}$/);
    expect(claudeToolUseId('call_1|fc_2')).toBe(odd);
    expect(claudeToolUseId('x'.repeat(65))).not.toBe('x'.repeat(65));
  });

  it('refuses a session without a cwd, or one Claude Code would shorten', () => {
    const noCwd = { ...twoTurns, header: newSessionHeader({ id: SessionId('s-x'), createdAt: 0 }) };
    expect(() => renderClaudeTranscript(noCwd)).toThrow(ClaudeExportError);
    expect(claudeProjectSlug(`/${'a'.repeat(250)}`)).toBeUndefined();
    expect(claudeProjectSlug('/tmp/x_y.z/w')).toBe('-tmp-x-y-z-w');
  });

  it('writes a stored image as an image block in a prompt and in a tool result; others are named and left out', () => {
    const out = renderClaudeTranscript(imageTurn());
    const lines = records(out.text);
    const png = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_1PX } };
    expect(lines[0]!.message).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'What is in' },
        png,
        { type: 'text', text: '[image gone]\n[image svg-1]\nthese?' },
      ],
    });
    expect(lines[2]!.message).toEqual({
      role: 'user',
      content: [
        {
          tool_use_id: 'c1',
          type: 'tool_result',
          content: [{ type: 'text', text: 'shot.png' }, png],
          is_error: false,
        },
      ],
    });
    expect(out.leftOut).toEqual(['2 × image not carried']);
  });

  it('writes a session without images as before: no attachments change nothing', () => {
    const { attachments: _, ...bare } = imageTurn();
    const lines = records(renderClaudeTranscript(bare).text);
    expect(lines[0]!.message).toEqual({
      role: 'user',
      content: 'What is in\n[image png-1]\n[image gone]\n[image svg-1]\nthese?',
    });
    expect(renderClaudeTranscript(bare).leftOut).toEqual(['4 × image not carried']);
  });
});
