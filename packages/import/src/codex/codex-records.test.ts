import { describe, expect, it } from 'vitest';
import { SessionSeq, type SessionEvent } from '@strand/session';
import { isContextMessage, typedRequest } from './codex-text.js';
import { AttachmentSink } from '../mapping/attachments.js';
import { messageBlocks, outputOf, usageDelta } from './codex-records.js';
import { spawnCut } from './fork-cut.js';
import { usage } from '../mapping/usage.js';

const totals = (input: number, output: number, lastIn = input, lastOut = output) => ({
  total_token_usage: { input_tokens: input, output_tokens: output },
  last_token_usage: { input_tokens: lastIn, output_tokens: lastOut },
});

describe('usageDelta', () => {
  it('counts the growth of the running total, so repeated token_count events add nothing', () => {
    const first = usageDelta(totals(100, 10), undefined)!;
    expect(first.delta).toEqual(usage({ input: 100, output: 10 }));
    const repeat = usageDelta(totals(100, 10), first.totals)!;
    expect(repeat.delta).toEqual(usage({}));
    expect(usageDelta(totals(250, 30, 150, 20), first.totals)!.delta).toEqual(
      usage({ input: 150, output: 20 }),
    );
  });

  it('falls back to the last request when the total went down, and ignores an empty info', () => {
    expect(usageDelta(totals(50, 5, 40, 4), usage({ input: 900, output: 90 }))!.delta).toEqual(
      usage({ input: 40, output: 4 }),
    );
    expect(usageDelta(null, undefined)).toBeUndefined();
  });

  it('takes the cached part out of input as cache reads, and reads reasoning as a part of output', () => {
    // Codex 0.16x: input_tokens includes cached_input_tokens; total_tokens = input + output.
    const info = {
      total_token_usage: {
        input_tokens: 12_000,
        cached_input_tokens: 9_000,
        output_tokens: 700,
        reasoning_output_tokens: 500,
        total_tokens: 12_700,
      },
    };
    expect(usageDelta(info, undefined)!.delta).toEqual(
      usage({ input: 3_000, cacheRead: 9_000, output: 700, reasoning: 500 }),
    );
  });
});

describe('Codex text conventions', () => {
  it('tells injected context from prompts and unwraps the IDE preamble', () => {
    expect(isContextMessage('<environment_context>\n<cwd>/x</cwd>\n</environment_context>')).toBe(true);
    expect(isContextMessage('# AGENTS.md instructions for /x\n\n<INSTRUCTIONS>')).toBe(true);
    expect(isContextMessage('please fix <environment_context>')).toBe(false);
    // What Codex 0.16x tells the model in a user message: a subagent finished, a turn was interrupted.
    expect(isContextMessage('<subagent_notification>\n{"agent_path":"x"}\n</subagent_notification>')).toBe(
      true,
    );
    expect(isContextMessage('<turn_aborted>\nThe user interrupted the previous turn.\n</turn_aborted>')).toBe(
      true,
    );
    expect(
      typedRequest(
        '# Context from my IDE setup:\n\n## Open tabs:\n- a\n\n## My request for Codex:\nrename foo',
      ),
    ).toBe('\nrename foo');
  });

  it('reads tool outputs given as strings or {content, success}', () => {
    expect(outputOf('ok')).toEqual({ content: 'ok', isError: false });
    expect(outputOf({ content: 'denied', success: false })).toEqual({ content: 'denied', isError: true });
  });
});

describe('spawnCut', () => {
  const ev = (seq: number, type: string, data: object = {}): SessionEvent => ({
    seq: SessionSeq(seq),
    time: seq,
    type,
    data: data as never,
  });
  const parent = [
    ev(0, 'turn/start'),
    ev(1, 'user/message', { content: 'a', author: 'human' }),
    ev(2, 'turn/end', { reason: 'completed' }),
    ev(3, 'turn/start'),
    ev(4, 'tool/call', { callId: 'c1', name: 'spawn_agent', arguments: '{}' }),
    ev(5, 'tool/result', { callId: 'c1', content: '{"agent_id":"child-1","nickname":"Ada"}' }),
    ev(6, 'turn/end', { reason: 'completed' }),
  ];

  it('cuts at the start of the turn whose spawn call returned the child id', () => {
    expect(spawnCut('child-1')(parent)).toBe(3);
  });

  it('finds no cut when the parent never returned the child id', () => {
    expect(spawnCut('child-2')(parent)).toBeUndefined();
  });
});

describe('messageBlocks', () => {
  const png =
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

  it("drops Codex's own frame around an attached image (0.16x), keeping the image and the typed text", () => {
    const blocks = messageBlocks(
      [
        { type: 'input_text', text: '<image name=[Image #1] path="dot.png">' },
        { type: 'input_image', image_url: `data:image/png;base64,${png}` },
        { type: 'input_text', text: '</image>' },
        { type: 'input_text', text: 'What is in this picture?' },
      ],
      new AttachmentSink(),
    );
    expect(blocks.map((b) => b.type)).toEqual(['image', 'text']);
    expect(blocks[1]).toEqual({ type: 'text', text: 'What is in this picture?' });
  });

  it('keeps such text when no image is attached: then someone typed it', () => {
    expect(messageBlocks([{ type: 'input_text', text: '</image>' }], new AttachmentSink())).toEqual([
      { type: 'text', text: '</image>' },
    ]);
  });
});
