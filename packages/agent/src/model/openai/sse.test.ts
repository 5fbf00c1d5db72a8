import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SseDecoder } from './sse.js';

describe('SseDecoder', () => {
  it('dispatches an event at each blank line, joining data lines with newlines', () => {
    const decoder = new SseDecoder();
    expect(decoder.push('data: a\ndata: b\n\ndata: c\n\n')).toEqual([
      { event: 'message', data: 'a\nb' },
      { event: 'message', data: 'c' },
    ]);
  });

  it('accepts LF, CRLF and CR line ends, including a CR and its LF in different chunks', () => {
    const decoder = new SseDecoder();
    expect(decoder.push('data: x\r')).toEqual([]);
    expect(decoder.push('\n\r\n')).toEqual([{ event: 'message', data: 'x' }]);
    expect(decoder.push('data: y\r\rdata: z\n\n')).toEqual([
      { event: 'message', data: 'y' },
      { event: 'message', data: 'z' },
    ]);
  });

  it('ignores comments and unknown fields, keeps the event type, strips one leading space only', () => {
    const decoder = new SseDecoder();
    expect(decoder.push(': keep-alive\nevent: delta\nid: 7\ndata:  two spaces\n\n')).toEqual([
      { event: 'delta', data: ' two spaces' },
    ]);
  });

  it('drops an event the stream ends in the middle of', () => {
    const decoder = new SseDecoder();
    expect(decoder.push('data: complete\n\ndata: torn')).toEqual([{ event: 'message', data: 'complete' }]);
  });

  it('gives the same events however the text is split into chunks', () => {
    const text = 'data: {"a":1}\r\n\r\n: c\ndata: two\ndata: lines\n\nevent: e\ndata: [DONE]\n\n';
    const whole = new SseDecoder().push(text);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: text.length }), { maxLength: 12 }), (cuts) => {
        const points = [...new Set(cuts)].sort((a, b) => a - b);
        const decoder = new SseDecoder();
        const events = [];
        let from = 0;
        for (const to of [...points, text.length]) {
          events.push(...decoder.push(text.slice(from, to)));
          from = to;
        }
        expect(events).toEqual(whole);
      }),
    );
  });
});
