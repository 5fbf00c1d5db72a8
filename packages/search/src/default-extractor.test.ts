import { describe, expect, it } from 'vitest';
import { SessionSeq, type SessionEvent } from '@strand/session';
import { defaultTextExtractor } from './default-extractor.js';

const event = (type: string, data: unknown): SessionEvent => ({
  type,
  seq: SessionSeq(0),
  time: 0,
  data: data as SessionEvent['data'],
});

describe('defaultTextExtractor', () => {
  it('takes message and tool result content: strings and text blocks, not images', () => {
    expect(defaultTextExtractor(event('user/message', { content: 'hi', author: 'human' }))).toBe('hi');
    expect(
      defaultTextExtractor(
        event('assistant/message', {
          content: [
            { type: 'text', text: 'a' },
            { type: 'image', ref: 'r' },
            { type: 'text', text: 'b' },
          ],
        }),
      ),
    ).toBe('a\nb');
    expect(
      defaultTextExtractor(event('tool/result', { callId: 'c', content: [{ type: 'image', ref: 'r' }] })),
    ).toBeUndefined();
    expect(defaultTextExtractor(event('user/message', { content: '', author: 'human' }))).toBeUndefined();
  });

  it('takes tool output without terminal escapes (a coloured test run reads as its words)', () => {
    const coloured = '\u001b[32m✓\u001b[39m 12 passed \u001b[2m(3 files)\u001b[22m';
    expect(defaultTextExtractor(event('tool/result', { callId: 'c', content: coloured }))).toBe(
      '✓ 12 passed (3 files)',
    );
    expect(
      defaultTextExtractor(
        event('tool/result', { callId: 'c', content: [{ type: 'text', text: '\u001b[1mbold\u001b[22m' }] }),
      ),
    ).toBe('bold');
  });

  it('takes tool call arguments: the string leaves of JSON, or the raw string', () => {
    const args = JSON.stringify({
      path: 'src/a.ts',
      content: 'line one\nline two',
      flags: ['x', 1, { deep: 'y' }],
    });
    expect(defaultTextExtractor(event('tool/call', { callId: 'c', name: 'write', arguments: args }))).toBe(
      'src/a.ts\nline one\nline two\nx\ny',
    );
    expect(defaultTextExtractor(event('tool/call', { callId: 'c', name: 'sh', arguments: 'ls -la' }))).toBe(
      'ls -la',
    );
  });

  it('ignores every other type and malformed data without throwing', () => {
    expect(defaultTextExtractor(event('session/title', { title: 'not indexed' }))).toBeUndefined();
    expect(defaultTextExtractor(event('plugin/unknown', { content: 'x' }))).toBeUndefined();
    expect(defaultTextExtractor(event('user/message', null))).toBeUndefined();
    expect(defaultTextExtractor(event('tool/call', { arguments: 42 }))).toBeUndefined();
  });
});
