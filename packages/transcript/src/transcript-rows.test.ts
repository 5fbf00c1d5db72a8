import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { WireEvent } from '@strand/protocol';
import { targetRowSeq, transcriptRows } from './transcript-rows.js';

let nextSeq = 0;
const at = (type: string, data: unknown, seq = ++nextSeq): WireEvent => ({
  seq,
  time: 1,
  type,
  data: data as WireEvent['data'],
});

describe('transcriptRows', () => {
  it('draws each event as the row its kind says, results inside their calls and outputs under their command', () => {
    const events = [
      at('user/message', { author: 'human', content: 'hi' }, 1),
      at('step/start', {}, 2),
      at(
        'assistant/message',
        { content: 'reading', toolCalls: [{ id: 'c1', name: 'read', arguments: '{}' }] },
        3,
      ),
      at('tool/result', { callId: 'c1', content: 'text' }, 4),
      at('step/end', {}, 5),
      at('session/command', { name: 'compact', args: '' }, 6),
      at('session/command-output', { stream: 'stdout', text: 'ok' }, 7),
      at('session/title', { title: 'Named' }, 8),
      at('turn/end', { reason: 'completed' }, 9),
      at('domain/thing', { x: 1 }, 10),
    ];
    const rows = transcriptRows(events);
    expect(rows.map((row) => [row.seq, row.kind])).toEqual([
      [1, 'user'],
      [3, 'assistant'],
      [6, 'command'],
      [8, 'quiet'],
      [9, 'turn-end'],
      [10, 'unknown'],
    ]);
    const assistant = rows[1];
    expect(assistant?.kind === 'assistant' && assistant.calls.map((call) => call.result?.seq)).toEqual([4]);
    const command = rows[2];
    expect(command?.kind === 'command' && command.outputs.map((output) => output.seq)).toEqual([7]);
    expect(rows[0]?.kind === 'user' && rows[0].author).toEqual({ label: 'User', kind: 'human' });
    expect(rows[3]?.kind === 'quiet' && rows[3].text).toBe('renamed to “Named”');
  });

  it('draws a call with a tool/call row of its own as that row, and a result without its call alone', () => {
    const rows = transcriptRows([
      at('assistant/message', { content: '', toolCalls: [{ id: 'c1', name: 'bash', arguments: '{}' }] }, 1),
      at('tool/call', { callId: 'c1', name: 'bash', arguments: '{}' }, 2),
      at('tool/result', { callId: 'c1', content: 'done' }, 3),
      at('tool/result', { callId: 'gone', content: 'late' }, 4),
    ]);
    expect(rows.map((row) => [row.seq, row.kind])).toEqual([
      [2, 'tool-call'],
      [4, 'tool-result'],
    ]);
    expect(rows[0]?.kind === 'tool-call' && rows[0].call.result?.seq).toBe(3);
  });
});

/** Events of the kinds that fold into one another: calls, results, messages, commands, markers. */
const eventArb = fc.oneof(
  fc
    .constantFrom('c1', 'c2', 'c3')
    .map((id) => ({ type: 'tool/call', data: { callId: id, name: 't', arguments: '{}' } })),
  fc
    .constantFrom('c1', 'c2', 'c3', 'c4')
    .map((id) => ({ type: 'tool/result', data: { callId: id, content: 'r' } })),
  fc
    .record({ text: fc.constantFrom('', ' ', 'hello'), calls: fc.subarray(['c1', 'c2', 'c4']) })
    .map(({ text, calls }) => ({
      type: 'assistant/message',
      data: { content: text, toolCalls: calls.map((id) => ({ id, name: 't', arguments: '{}' })) },
    })),
  fc.constant({ type: 'user/message', data: { author: 'human', content: 'q' } }),
  fc.constant({ type: 'session/command', data: { name: 'x', args: '' } }),
  fc.constant({ type: 'session/command-output', data: { stream: 'stdout', text: 'o' } }),
  fc.constantFrom('step/start', 'step/end', 'turn/start').map((type) => ({ type, data: {} })),
);
/** A call id is declared by at most one message and drawn by at most one `tool/call`, as in a log. */
function uniqueCalls(list: readonly { type: string; data: unknown }[]): { type: string; data: unknown }[] {
  const declared = new Set<string>();
  const called = new Set<string>();
  return list.flatMap((event) => {
    if (event.type === 'tool/call') {
      const id = (event.data as { callId: string }).callId;
      if (called.has(id)) return [];
      called.add(id);
      return [event];
    }
    if (event.type !== 'assistant/message') return [event];
    const data = event.data as { content: string; toolCalls: { id: string }[] };
    const toolCalls = data.toolCalls.filter((call) => !declared.has(call.id));
    for (const call of toolCalls) declared.add(call.id);
    return [{ type: event.type, data: { ...data, toolCalls } }];
  });
}
const eventsArb = fc
  .array(eventArb, { maxLength: 30 })
  .map((list) => uniqueCalls(list).map((event, index) => at(event.type, event.data, index + 1)));

describe('transcriptRows (property)', () => {
  it('rows are in seq order, each event drawn at most once (as a row or inside one), and every target lands on a row', () => {
    fc.assert(
      fc.property(eventsArb, (events) => {
        const rows = transcriptRows(events);
        const seqs = rows.map((row) => row.seq);
        expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
        const drawn = [...seqs];
        for (const row of rows) {
          if (row.kind === 'tool-call' && row.call.result !== undefined) drawn.push(row.call.result.seq);
          if (row.kind === 'assistant')
            for (const call of row.calls) if (call.result) drawn.push(call.result.seq);
          if (row.kind === 'command') drawn.push(...row.outputs.map((output) => output.seq));
        }
        expect(new Set(drawn).size).toBe(drawn.length);
        // A step marker never is a row; everything a row shows is a loaded event.
        expect(rows.every((row) => row.type !== 'step/start' && row.type !== 'step/end')).toBe(true);
        const loaded = new Set(events.map((event) => event.seq));
        expect(drawn.every((seq) => loaded.has(seq))).toBe(true);
        for (const event of events) {
          const target = targetRowSeq(events, event.seq);
          if (rows.length === 0) expect(target).toBeUndefined();
          else expect(seqs).toContain(target);
        }
      }),
    );
  });

  it('a prefix of the events draws the rows of the whole that are complete in it (appending only adds or grows rows)', () => {
    fc.assert(
      fc.property(eventsArb, fc.nat(), (events, cut) => {
        const prefix = events.slice(0, cut % (events.length + 1));
        const before = new Set(transcriptRows(prefix).map((row) => row.seq));
        const after = new Set(transcriptRows(events).map((row) => row.seq));
        // A row may only disappear when a later event draws it elsewhere: a result joining its
        // call's card, an output its command, or a tool-only chunk its own call rows.
        for (const seq of before)
          if (!after.has(seq)) {
            const event = events.find((candidate) => candidate.seq === seq)!;
            expect(['tool/result', 'session/command-output', 'assistant/message']).toContain(event.type);
          }
      }),
    );
  });
});
