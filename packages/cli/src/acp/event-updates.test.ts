import fc from 'fast-check';
import type { WireEvent } from '@strand/protocol';
import { describe, expect, it } from 'vitest';
import { eventUpdates, turnOutcome } from './event-updates.js';

const event = (type: string, data: unknown, seq = 0): WireEvent =>
  ({ type, seq, time: 0, data }) as WireEvent;

describe('eventUpdates (a Strand event → ACP session/update)', () => {
  it('a person’s message is a user chunk in history, nothing in the editor’s own turn', () => {
    const message = event('user/message', { content: 'hi', author: 'human' });
    expect(eventUpdates(message, 'history')).toEqual([
      { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'hi' } },
    ]);
    expect(eventUpdates(message, 'turn')).toEqual([]);
  });

  it('assistant text blocks are agent chunks; empty text and tool-only messages give none', () => {
    const blocks = event('assistant/message', {
      content: [
        { type: 'text', text: 'a' },
        { type: 'text', text: '' },
        { type: 'image', ref: 'att-1' },
      ],
    });
    expect(eventUpdates(blocks, 'turn')).toEqual([
      { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'a' } },
      {
        sessionUpdate: 'agent_message_chunk',
        content: { type: 'resource_link', name: 'att-1', uri: 'strand-attachment:att-1' },
      },
    ]);
    expect(eventUpdates(event('assistant/message', { content: '', toolCalls: [] }), 'turn')).toEqual([]);
  });

  it('a tool call opens in_progress with its parsed arguments; its result completes or fails it', () => {
    expect(
      eventUpdates(event('tool/call', { callId: 'c1', name: 'list_agents', arguments: '{"a":1}' }), 'turn'),
    ).toEqual([
      {
        sessionUpdate: 'tool_call',
        toolCallId: 'c1',
        title: 'list_agents',
        kind: 'other',
        status: 'in_progress',
        rawInput: { a: 1 },
      },
    ]);
    expect(
      eventUpdates(event('tool/call', { callId: 'c1', name: 'x', arguments: 'not json' }), 'turn')[0],
    ).toMatchObject({
      rawInput: 'not json',
    });
    expect(eventUpdates(event('tool/result', { callId: 'c1', content: 'ok' }), 'turn')).toEqual([
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: 'c1',
        status: 'completed',
        content: [{ type: 'content', content: { type: 'text', text: 'ok' } }],
      },
    ]);
    expect(
      eventUpdates(event('tool/result', { callId: 'c1', content: 'no', isError: true }), 'turn')[0],
    ).toMatchObject({
      status: 'failed',
    });
  });

  it('tool output reaches the editor without terminal escapes; a slash command is the person’s, in history', () => {
    const coloured = event('tool/result', { callId: 'c1', content: '\u001b[31mFAIL\u001b[39m a.test.ts' });
    expect(eventUpdates(coloured, 'turn')).toEqual([
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: 'c1',
        status: 'completed',
        content: [{ type: 'content', content: { type: 'text', text: 'FAIL a.test.ts' } }],
      },
    ]);
    const command = event('session/command', { name: 'model', args: 'opus' });
    expect(eventUpdates(command, 'history')).toEqual([
      { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: '/model opus' } },
    ]);
    expect(eventUpdates(command, 'turn')).toEqual([]);
    expect(
      eventUpdates(event('session/command-output', { text: 'ok', stream: 'stdout' }), 'history'),
    ).toEqual([]);
  });

  it('markers, selections, unknown types and malformed data map to nothing', () => {
    for (const type of ['turn/start', 'step/start', 'request/header', 'session/title', 'plugin/whatever'])
      expect(eventUpdates(event(type, {}), 'history')).toEqual([]);
    expect(eventUpdates(event('tool/call', { callId: 1 }), 'history')).toEqual([]);
    expect(eventUpdates(event('user/message', null), 'history')).toEqual([]);
  });

  it('never throws, and a turn’s updates are the history’s without user chunks (any event)', () => {
    const anyEvent = fc.record({
      type: fc.constantFrom(
        'user/message',
        'assistant/message',
        'tool/call',
        'tool/result',
        'turn/end',
        'x/y',
      ),
      seq: fc.nat(),
      time: fc.nat(),
      data: fc.jsonValue(),
    });
    fc.assert(
      fc.property(anyEvent, (e) => {
        const history = eventUpdates(e as WireEvent, 'history');
        const turn = eventUpdates(e as WireEvent, 'turn');
        expect(turn).toEqual(history.filter((u) => u.sessionUpdate !== 'user_message_chunk'));
      }),
    );
  });
});

describe('turnOutcome (turn/end → the prompt’s answer)', () => {
  it('completed is end_turn, aborted is cancelled, error fails with its message', () => {
    expect(turnOutcome(event('turn/end', { reason: 'completed' }))).toEqual({
      kind: 'stopped',
      stopReason: 'end_turn',
    });
    expect(turnOutcome(event('turn/end', { reason: 'aborted' }))).toEqual({
      kind: 'stopped',
      stopReason: 'cancelled',
    });
    expect(
      turnOutcome(event('turn/end', { reason: 'error', error: 'AGENT_MODEL_FAILED: model down' })),
    ).toEqual({
      kind: 'failed',
      message: 'the turn ended with error: AGENT_MODEL_FAILED: model down',
    });
    expect(turnOutcome(event('turn/end', { reason: 'interrupted' })).kind).toBe('failed');
  });
});
