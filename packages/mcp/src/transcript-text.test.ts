import type { WireEvent } from '@strand/protocol';
import { describe, expect, it } from 'vitest';
import { TRANSCRIPT_LIMITS, renderTranscript } from './transcript-text.js';

const event = (seq: number, type: string, data: WireEvent['data'] = {}): WireEvent => ({
  type,
  seq,
  time: 1_700_000_000_000 + seq,
  data,
});

describe('renderTranscript', () => {
  it('renders each core event type with its seq and leaves steps out', () => {
    const { text, shown } = renderTranscript({
      id: 's1',
      cursor: 9,
      heading: ['Session s1', ''],
      events: [
        event(0, 'turn/start'),
        event(1, 'user/message', { content: 'hello there', author: 'human' }),
        event(2, 'step/start'),
        event(3, 'assistant/message', {
          content: [
            { type: 'text', text: 'looking' },
            { type: 'image', ref: 'att-1' },
          ],
          toolCalls: [{ id: 'c1', name: 'grep', arguments: '{"q":"x"}' }],
        }),
        event(4, 'tool/call', { callId: 'c1', name: 'grep', arguments: '{"q":"x"}' }),
        event(5, 'tool/result', {
          callId: 'c1',
          content: 'boom',
          isError: true,
          code: 'TOOL_OUTCOME_UNKNOWN',
        }),
        event(6, 'step/end'),
        event(7, 'plugin/thing', { n: 1 }),
        event(8, 'turn/end', { reason: 'completed' }),
      ],
    });
    expect(text).toBe(
      [
        'Session s1',
        '',
        '[0] --- turn starts',
        '[1] user:\nhello there',
        '[3] assistant:\nlooking\n[image att-1]\n  → calls grep (c1)',
        '[4] tool call grep (c1): {"q":"x"}',
        '[5] tool result (c1) failed TOOL_OUTCOME_UNKNOWN:\nboom',
        '[7] plugin/thing {"n":1}',
        '[8] --- turn ends (completed)',
        '',
        'Shown: seqs 0–8 of 0–8.',
      ].join('\n'),
    );
    expect(shown).toEqual({ first: 0, last: 8 });
  });

  it('shows a command and its output, and no terminal escape reaches the model', () => {
    const { text } = renderTranscript({
      id: 's1',
      cursor: 4,
      heading: [],
      events: [
        event(0, 'session/command', { name: 'model', args: 'opus' }),
        event(1, 'session/command-output', {
          text: '\u001b[2mSet model to opus\u001b[22m',
          stream: 'stdout',
        }),
        event(2, 'tool/call', { callId: 'c1', name: 'Bash', arguments: '{}' }),
        event(3, 'tool/result', { callId: 'c1', content: '\u001b[32mPASS\u001b[39m all' }),
      ],
    });
    expect(text).toContain('[0] command run in the harness: /model opus');
    expect(text).toContain('[1] command output (stdout):\nSet model to opus');
    expect(text).toContain('[3] tool result (c1):\nPASS all');
    expect(text).not.toContain('\u001b');
  });

  it('names who wrote a user message that is no person’s', () => {
    const { text } = renderTranscript({
      id: 'c',
      cursor: 2,
      heading: [],
      events: [
        event(0, 'user/message', { content: 'do this', author: 'agent' }),
        event(1, 'user/message', { content: 'env', author: 'system' }),
      ],
    });
    expect(text).toContain('[0] user (the parent agent):\ndo this');
    expect(text).toContain('[1] user (system):\nenv');
  });

  it('cuts one long event and says how much it left out', () => {
    const long = 'x'.repeat(TRANSCRIPT_LIMITS.eventChars + 10);
    const { text } = renderTranscript({
      id: 's',
      cursor: 1,
      heading: [],
      events: [event(0, 'assistant/message', { content: long })],
    });
    expect(text).toContain(`${'x'.repeat(TRANSCRIPT_LIMITS.eventChars)}… [10 more characters]`);
    expect(text).not.toContain('x'.repeat(TRANSCRIPT_LIMITS.eventChars + 1));
  });

  it('stops before the event that would pass the total bound and names the next fromSeq', () => {
    const body = 'y'.repeat(TRANSCRIPT_LIMITS.eventChars - 100);
    const events = Array.from({ length: 30 }, (_, i) =>
      event(100 + i, 'assistant/message', { content: body }),
    );
    const { text, shown } = renderTranscript({ id: 'big', cursor: 500, heading: [], events });
    expect(text.length).toBeLessThanOrEqual(TRANSCRIPT_LIMITS.totalChars + 500);
    expect(shown!.first).toBe(100);
    expect(shown!.last).toBeLessThan(129);
    expect(text).toContain(
      `Later: read_session {"id": "big", "fromSeq": ${shown!.last + 1}, "toSeq": ${shown!.last + 100}}`,
    );
    expect(text).toContain('Earlier: read_session {"id": "big", "fromSeq": 0, "toSeq": 99}');
  });

  it('always shows one event, however large, so reading on advances', () => {
    const { shown } = renderTranscript({
      id: 's',
      cursor: 1,
      heading: ['h'.repeat(TRANSCRIPT_LIMITS.totalChars)],
      events: [event(0, 'user/message', { content: 'hi', author: 'human' })],
    });
    expect(shown).toEqual({ first: 0, last: 0 });
  });

  it('says so when the window holds no events', () => {
    const { text, shown } = renderTranscript({ id: 's', cursor: 3, heading: [], events: [] });
    expect(shown).toBeUndefined();
    expect(text).toContain('No events in this window (the session has 3).');
  });

  it('shows data that does not match the vocabulary as it is, instead of failing or guessing', () => {
    const { text } = renderTranscript({
      id: 's',
      cursor: 2,
      heading: [],
      events: [event(0, 'user/message', null), event(1, 'tool/result', ['a'])],
    });
    expect(text).toContain('[0] user/message null');
    expect(text).toContain('[1] tool/result ["a"]');
    expect(text).not.toContain('undefined');
  });
});
