import { newSessionHeader, SessionId } from '@strand/session';
import { describe, expect, it } from 'vitest';
import { HarnessExportError } from '../harness-transcript.js';
import { strandExportOf, STRAND_EXPORT_MARKER } from '../marker.js';
import { documentOf, imageTurn, jsonLines, PNG_1PX, twoToolTurns } from '../test-document.js';
import { codexThreadId, renderCodexRollout } from './rollout.js';

const twoTurns = twoToolTurns('openai', 'gpt-5.5', 'exec_command', '{"cmd":"ls"}');

const records = jsonLines;

const payloadKinds = (text: string): string[] =>
  records(text).map((r) => {
    const p = r.payload as Record<string, unknown>;
    return `${r.type as string}:${(p.type as string | undefined) ?? ''}${p.role === undefined ? '' : `/${p.role as string}`}`;
  });

describe('renderCodexRollout', () => {
  it('writes the meta line, turns with their context, prompts, replies, calls with outputs and the title', () => {
    const out = renderCodexRollout(twoTurns);
    expect(payloadKinds(out.text)).toEqual([
      'session_meta:',
      'event_msg:task_started',
      'turn_context:',
      'response_item:message/user',
      'response_item:message/assistant',
      'response_item:function_call',
      'response_item:function_call_output',
      'response_item:message/assistant',
      'event_msg:task_complete',
      'event_msg:task_started',
      'turn_context:',
      'response_item:message/user',
      'response_item:function_call',
      'response_item:function_call_output',
      'event_msg:turn_aborted',
      'event_msg:thread_name_updated',
    ]);
    const lines = records(out.text);
    expect(lines[0]!.payload).toMatchObject({
      id: out.threadId,
      cwd: '/home/ana/shop',
      cli_version: '0.169.0',
    });
    expect(lines[2]!.payload).toMatchObject({ model: 'gpt-5.5', cwd: '/home/ana/shop' });
    expect(lines[5]!.payload).toEqual({
      type: 'function_call',
      name: 'exec_command',
      arguments: '{"cmd":"ls"}',
      call_id: 'c1',
    });
    expect(lines[6]!.payload).toEqual({ type: 'function_call_output', call_id: 'c1', output: 'a.txt' });
    // An id the API would refuse is derived; a call without a result is answered with an error text.
    const odd = (lines[12]!.payload as { call_id: string }).call_id;
    expect(odd).toMatch(/^call_strand_[0-9a-f]{32}$/);
    expect(lines[12]!.payload).toMatchObject({ arguments: '{"arguments":"not json"}' });
    expect(lines[13]!.payload).toMatchObject({
      call_id: odd,
      output: 'No result was recorded for this call.',
    });
    expect(lines[15]!.payload).toMatchObject({ thread_name: 'Files', thread_id: out.threadId });
    expect(out.leftOut).toEqual([
      '1 × harness note not carried',
      '1 × tool call without a result (an error result written in its place) not carried',
    ]);
  });

  it('files it by the start day under a name holding the thread id, the same bytes twice, marked', () => {
    const out = renderCodexRollout(twoTurns);
    expect(renderCodexRollout(twoTurns)).toEqual(out);
    expect(out.dayFolder).toBe('2026/12/05');
    expect(out.fileName).toBe(`rollout-2026-12-05T09-30-00-${out.threadId}.jsonl`);
    expect(out.threadId).toBe(codexThreadId('s-export-1'));
    expect(records(out.text)[0]![STRAND_EXPORT_MARKER]).toMatchObject({ origin: 's-export-1', cut: 14 });
    expect(strandExportOf(out.text)).toMatchObject({ origin: 's-export-1' });
    expect(strandExportOf(`${out.text}{"type":"event_msg"}\n`)).toBeUndefined();
  });

  it('says an error result in its text (Codex keeps no flag), and refuses a session without a cwd', () => {
    const failed = documentOf([
      ['user/message', { content: 'Run it', author: 'human' }],
      ['tool/call', { callId: 'c1', name: 'exec_command', arguments: '{}' }],
      ['tool/result', { callId: 'c1', content: 'boom', isError: true }],
    ]);
    expect(renderCodexRollout(failed).text).toContain('"output":"Error: boom"');
    const noCwd = { ...twoTurns, header: newSessionHeader({ id: SessionId('s-x'), createdAt: 0 }) };
    expect(() => renderCodexRollout(noCwd)).toThrow(HarnessExportError);
    expect(renderCodexRollout(documentOf([['turn/start', {}]])).text).toBe('');
  });

  it('writes a stored image in a prompt as an input_image data URL; a result keeps its text, its image left out', () => {
    const out = renderCodexRollout(imageTurn());
    const items = records(out.text)
      .filter((r) => r.type === 'response_item')
      .map((r) => r.payload as Record<string, unknown>);
    expect(items[0]).toEqual({
      type: 'message',
      role: 'user',
      content: [
        { type: 'input_text', text: 'What is in' },
        { type: 'input_image', image_url: `data:image/png;base64,${PNG_1PX}` },
        { type: 'input_text', text: '[image gone]\n[image svg-1]\nthese?' },
      ],
    });
    expect(items[2]).toMatchObject({ type: 'function_call_output', output: 'shot.png\n[image png-1]' });
    expect(out.leftOut).toEqual(['3 × image not carried']);
  });
});
