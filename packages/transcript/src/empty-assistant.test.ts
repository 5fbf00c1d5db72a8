import { describe, expect, it } from 'vitest';
import type { WireEvent } from '@strand/protocol';
import { isEmptyAssistantMessage } from './transcript-rows.js';

const message = (data: WireEvent['data'], type = 'assistant/message'): WireEvent => ({
  seq: 3,
  time: 1,
  type,
  data,
});

describe('isEmptyAssistantMessage', () => {
  it('is true for a usage-only record (no text, no calls)', () => {
    expect(isEmptyAssistantMessage(message({ content: '', usage: { input: 10, output: 0 } }))).toBe(true);
    expect(isEmptyAssistantMessage(message({ content: [{ type: 'text', text: '  ' }] }))).toBe(true);
  });

  it('is false for data the vocabulary does not describe (shown as it is, never hidden)', () => {
    expect(isEmptyAssistantMessage(message({ usage: { input: 1, output: 1 } }))).toBe(false);
    expect(isEmptyAssistantMessage(message(null))).toBe(false);
  });

  it('is false when there is text, an image or a tool call to show', () => {
    expect(isEmptyAssistantMessage(message({ content: 'hello' }))).toBe(false);
    expect(isEmptyAssistantMessage(message({ content: [{ type: 'image', ref: 'a1' }] }))).toBe(false);
    expect(
      isEmptyAssistantMessage(
        message({ content: '', toolCalls: [{ id: 'c1', name: 'list_agents', arguments: '{}' }] }),
      ),
    ).toBe(false);
  });

  describe('a streamed chunk that carried only tool_use', () => {
    const calls = [
      { id: 'c1', name: 'read', arguments: '{}' },
      { id: 'c2', name: 'bash', arguments: '{}' },
    ];

    it('is empty when its own tool/call rows draw every call (nothing left for a bubble)', () => {
      expect(isEmptyAssistantMessage(message({ content: '', toolCalls: calls }), new Set(['c1', 'c2']))).toBe(
        true,
      );
      expect(
        isEmptyAssistantMessage(message({ content: [], toolCalls: calls.slice(0, 1) }), new Map([['c1', 4]])),
      ).toBe(true);
    });

    it('is not empty while one call has no tool/call row: the bubble draws that call', () => {
      expect(isEmptyAssistantMessage(message({ content: '', toolCalls: calls }), new Set(['c1']))).toBe(
        false,
      );
      expect(isEmptyAssistantMessage(message({ content: '', toolCalls: calls }), new Set())).toBe(false);
    });

    it('is not empty when it has text or an image besides the calls', () => {
      const shown = new Set(['c1', 'c2']);
      expect(isEmptyAssistantMessage(message({ content: 'Reading.', toolCalls: calls }), shown)).toBe(false);
      expect(
        isEmptyAssistantMessage(
          message({ content: [{ type: 'image', ref: 'a1' }], toolCalls: calls }),
          shown,
        ),
      ).toBe(false);
    });
  });

  it('never hides another event type', () => {
    expect(isEmptyAssistantMessage(message({ content: '' }, 'user/message'))).toBe(false);
  });
});
