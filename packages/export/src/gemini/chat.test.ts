import { newSessionHeader, SessionId } from '@strand/session';
import { describe, expect, it } from 'vitest';
import { HarnessExportError } from '../harness-transcript.js';
import { strandExportOf, STRAND_EXPORT_MARKER } from '../marker.js';
import { documentOf, imageTurn, jsonLines, PNG_1PX, twoToolTurns } from '../test-document.js';
import { geminiSessionId, renderGeminiChat } from './chat.js';

const twoTurns = twoToolTurns('google', 'gemini-2.5-flash', 'run_shell_command', '{"command":"ls"}');

const records = jsonLines;

describe('renderGeminiChat', () => {
  it('writes the header, prompts, each step as one gemini message with its finished calls, a cancelled turn and the title', () => {
    const out = renderGeminiChat(twoTurns);
    const lines = records(out.text);
    expect(lines.map((r) => r.type ?? Object.keys(r)[0])).toEqual([
      'sessionId',
      'user',
      'gemini',
      'gemini',
      'user',
      'gemini',
      'info',
      '$set',
    ]);
    expect(lines[0]).toMatchObject({
      sessionId: out.sessionId,
      projectHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      startTime: '2026-12-05T09:30:00.000Z',
      kind: 'main',
    });
    expect(lines[1]).toMatchObject({ type: 'user', content: [{ text: 'List the files' }] });
    expect(lines[2]).toMatchObject({
      type: 'gemini',
      content: 'Looking.',
      model: 'gemini-2.5-flash',
      toolCalls: [
        {
          id: 'c1',
          name: 'run_shell_command',
          args: { command: 'ls' },
          status: 'success',
          result: [
            { functionResponse: { id: 'c1', name: 'run_shell_command', response: { output: 'a.txt' } } },
          ],
        },
      ],
    });
    expect(lines[3]).toMatchObject({ type: 'gemini', content: 'One file: a.txt.' });
    expect(lines[3]!.toolCalls).toBeUndefined();
    // A call without a result is finished with an error; an id the API would refuse is derived.
    const call = (lines[5]!.toolCalls as Record<string, unknown>[])[0]!;
    expect(call).toMatchObject({ id: expect.stringMatching(/^strand_call_[0-9a-f]{32}$/), status: 'error' });
    expect(lines[6]).toMatchObject({ type: 'info', content: 'Request cancelled.' });
    expect(lines[7]).toEqual({ $set: { summary: 'Files' } });
    expect(new Set(lines.slice(1, 7).map((r) => r.id)).size).toBe(6);
  });

  it('is named by the start and the session id, the same bytes twice, marked on its first line', () => {
    const out = renderGeminiChat(twoTurns);
    expect(renderGeminiChat(twoTurns)).toEqual(out);
    expect(out.sessionId).toBe(geminiSessionId('s-export-1'));
    expect(out.fileName).toBe(`session-2026-12-05T09-30-${out.sessionId.slice(0, 8)}.jsonl`);
    expect(records(out.text)[0]![STRAND_EXPORT_MARKER]).toMatchObject({ origin: 's-export-1', cut: 14 });
    expect(strandExportOf(out.text)).toMatchObject({ origin: 's-export-1' });
    expect(strandExportOf(`${out.text}{"$set":{"lastUpdated":"x"}}\n`)).toBeUndefined();
  });

  it('records an error result as the error, and refuses a session without a cwd', () => {
    const failed = documentOf([
      ['user/message', { content: 'Run it', author: 'human' }],
      ['tool/call', { callId: 'c1', name: 'run_shell_command', arguments: '{}' }],
      ['tool/result', { callId: 'c1', content: 'boom', isError: true }],
    ]);
    expect(renderGeminiChat(failed).text).toContain('"response":{"error":"boom"}}}],"status":"error"');
    const noCwd = { ...twoTurns, header: newSessionHeader({ id: SessionId('s-x'), createdAt: 0 }) };
    expect(() => renderGeminiChat(noCwd)).toThrow(HarnessExportError);
  });

  it('writes a stored image in a prompt as an inlineData part; a result keeps its text, its image left out', () => {
    const out = renderGeminiChat(imageTurn());
    const lines = records(out.text);
    expect(lines[1]).toMatchObject({
      type: 'user',
      content: [
        { text: 'What is in' },
        { inlineData: { mimeType: 'image/png', data: PNG_1PX } },
        { text: '[image gone]\n[image svg-1]\nthese?' },
      ],
    });
    expect(lines[2]).toMatchObject({
      toolCalls: [{ result: [{ functionResponse: { response: { output: 'shot.png\n[image png-1]' } } }] }],
    });
    expect(out.leftOut).toEqual(['3 × image not carried']);
  });
});
