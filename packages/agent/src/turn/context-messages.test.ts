import { describe, expect, it } from 'vitest';
import { Session } from '@strand/session';
import { testHeader } from '@strand/test-support';
import { contextMessages } from './context-messages.js';

async function log(...inputs: { type: string; data: unknown }[]): Promise<Session> {
  const session = new Session({ header: testHeader('ctx') });
  await session.append(inputs);
  return session;
}

describe('contextMessages', () => {
  it('maps messages and tool results, and skips every other event type', async () => {
    const session = await log(
      { type: 'turn/start', data: {} },
      {
        type: 'user/message',
        data: {
          content: [
            { type: 'text', text: 'look' },
            { type: 'image', ref: 'img-1' },
          ],
          author: 'human',
        },
      },
      { type: 'request/header', data: { provider: 'p', model: 'm' } },
      {
        type: 'assistant/message',
        data: { content: '', toolCalls: [{ id: 'c1', name: 't', arguments: '{}' }] },
      },
      { type: 'tool/call', data: { callId: 'c1', name: 't', arguments: '{}' } },
      { type: 'tool/result', data: { callId: 'c1', content: 'bad', isError: true, code: 'X' } },
      { type: 'subagent/descriptor', data: { version: 2, mode: 'one-shot' } },
      { type: 'assistant/message', data: { content: 'done' } },
      { type: 'turn/end', data: { reason: 'completed' } },
    );
    expect(contextMessages(session.events, 'sys')).toEqual([
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'look\n[image img-1]' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 't', arguments: '{}' }] },
      { role: 'tool', callId: 'c1', content: 'error X: bad' },
      { role: 'assistant', content: 'done', toolCalls: [] },
    ]);
  });

  it('answers a tool call the log has no result for, so the conversation stays well-formed', async () => {
    const session = await log(
      {
        type: 'assistant/message',
        data: { content: '', toolCalls: [{ id: 'c1', name: 't', arguments: '{}' }] },
      },
      { type: 'tool/result', data: { callId: 'other', content: 'stray' } },
      { type: 'user/message', data: { content: 'next', author: 'human' } },
    );
    expect(contextMessages(session.events, undefined)).toEqual([
      { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 't', arguments: '{}' }] },
      { role: 'tool', callId: 'c1', content: 'error: no result was recorded for this call' },
      { role: 'user', content: 'next' },
    ]);
  });
});
