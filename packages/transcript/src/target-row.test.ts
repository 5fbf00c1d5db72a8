import { describe, expect, it } from 'vitest';
import type { WireEvent } from '@strand/protocol';
import { targetRowSeq } from './transcript-rows.js';

const at = (seq: number, type: string, data: WireEvent['data'] = {}): WireEvent => ({
  seq,
  time: 1,
  type,
  data,
});

// 10 user · 11 step/start (hidden) · 12 assistant with a call · 13 tool/call · 14 its result
// (drawn in the call's card) · 15 step/end (hidden) · 16 a usage-only record (not a row).
const EVENTS: WireEvent[] = [
  at(10, 'user/message', { author: 'human', content: 'hi' }),
  at(11, 'step/start'),
  at(12, 'assistant/message', {
    content: 'reading',
    toolCalls: [{ id: 'c', name: 'read', arguments: '{}' }],
  }),
  at(13, 'tool/call', { callId: 'c', name: 'read', arguments: '{}' }),
  at(14, 'tool/result', { callId: 'c', content: 'x' }),
  at(15, 'step/end'),
  at(16, 'assistant/message', { content: '', usage: { input: 1, output: 1 } }),
];

// A streamed reply: 20 its text · 21 a chunk with only two tool calls (drawn by 22 and 23, not a
// bubble) · 24 a chunk whose call has no tool/call row (a bubble drawing that call) · 25 more text.
const CHUNKS: WireEvent[] = [
  at(20, 'assistant/message', { content: 'Let me look.' }),
  at(21, 'assistant/message', {
    content: '',
    toolCalls: [
      { id: 'b', name: 'grep', arguments: '{}' },
      { id: 'a', name: 'read', arguments: '{}' },
    ],
  }),
  at(22, 'tool/call', { callId: 'a', name: 'read', arguments: '{}' }),
  at(23, 'tool/call', { callId: 'b', name: 'grep', arguments: '{}' }),
  at(24, 'assistant/message', { content: '', toolCalls: [{ id: 'z', name: 'bash', arguments: '{}' }] }),
  at(25, 'assistant/message', { content: 'Found it.' }),
];

describe('targetRowSeq', () => {
  it('is the row of the event itself when the event is a row', () => {
    expect(targetRowSeq(EVENTS, 10)).toBe(10);
    expect(targetRowSeq(EVENTS, 12)).toBe(12);
    expect(targetRowSeq(EVENTS, 13)).toBe(13);
  });

  it('is the row before a hidden event: a step marker, a result inside its card, a usage-only record', () => {
    expect(targetRowSeq(EVENTS, 11)).toBe(10);
    expect(targetRowSeq(EVENTS, 14)).toBe(13);
    expect(targetRowSeq(EVENTS, 15)).toBe(13);
    expect(targetRowSeq(EVENTS, 16)).toBe(13);
  });

  it("is a tool-only chunk's first call row (the card it is drawn as), not the row before it", () => {
    expect(targetRowSeq(CHUNKS, 21)).toBe(22);
  });

  it('keeps every other row at its own seq: the numbers are seqs, stable when a chunk is not drawn', () => {
    expect(targetRowSeq(CHUNKS, 20)).toBe(20);
    expect(targetRowSeq(CHUNKS, 23)).toBe(23);
    // The chunk with a call no tool/call row draws is a bubble of its own.
    expect(targetRowSeq(CHUNKS, 24)).toBe(24);
    expect(targetRowSeq(CHUNKS, 25)).toBe(25);
  });

  it('is the first row for a target before every row, and nothing without rows', () => {
    expect(targetRowSeq(EVENTS, 3)).toBe(10);
    expect(targetRowSeq([at(0, 'step/start')], 0)).toBeUndefined();
  });
});
