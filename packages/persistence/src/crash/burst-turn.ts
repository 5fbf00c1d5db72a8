import type { SessionEventInput } from '@strand/session';

/**
 * The closed turn each burst session of the create-burst crash test holds: written by the child
 * (runtime code, which may not import the test helpers) and expected back by the test.
 */
export function burstTurn(id: string): SessionEventInput[] {
  const callId = `call-${id}`;
  return [
    { type: 'turn/start', data: {} },
    { type: 'user/message', data: { content: `prompt of ${id}`, author: 'human' } },
    { type: 'step/start', data: {} },
    {
      type: 'assistant/message',
      data: {
        content: 'let me look',
        toolCalls: [{ id: callId, name: 'read_file', arguments: '{"path":"a.txt"}' }],
      },
    },
    { type: 'tool/call', data: { callId, name: 'read_file', arguments: '{"path":"a.txt"}' } },
    { type: 'tool/result', data: { callId, content: 'contents of a.txt' } },
    { type: 'step/end', data: {} },
    { type: 'turn/end', data: { reason: 'completed' } },
  ];
}
