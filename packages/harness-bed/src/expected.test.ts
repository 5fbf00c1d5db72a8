import { describe, expect, it } from 'vitest';
import type { Exchange } from './endpoint.js';
import { expectedConversation } from './expected.js';
import type { BedMessage, SentAnswer } from './wire/conversation.js';

const PROMPTS = [{ text: 'Please tell a long story.' }, { text: 'Please just say hi.' }];

const user = (text: string): BedMessage => ({ role: 'user', parts: [{ kind: 'text', text }] });
const assistant = (text: string): BedMessage => ({ role: 'assistant', parts: [{ kind: 'text', text }] });

function exchange(
  index: number,
  messages: readonly BedMessage[],
  answer: Omit<SentAnswer, 'toolCalls'>,
): Exchange {
  return {
    index,
    thread: 'main',
    request: {
      wire: 'anthropic-messages',
      path: '/v1/messages',
      model: 'm',
      stream: true,
      system: '',
      messages,
      tools: [],
      headers: {},
    },
    body: {},
    answer: { ...answer, toolCalls: [] },
  };
}

/** The interrupted turn: its request reached the endpoint, which held the answer open. */
const interrupted = exchange(0, [user('Please tell a long story.')], {
  text: 'Once upon a time',
  hold: true,
});

describe('expectedConversation of an interrupted turn', () => {
  it('is what the next request carries of it, when the harness kept the turn', () => {
    const resumed = exchange(
      1,
      [user('Please tell a long story.'), assistant('No response requested.'), user('Please just say hi.')],
      { text: 'Hi.' },
    );
    expect(expectedConversation([interrupted, resumed], PROMPTS, 'human')).toEqual([
      { kind: 'prompt', author: 'human', text: 'Please tell a long story.' },
      { kind: 'reply', text: 'No response requested.' },
      { kind: 'prompt', author: 'human', text: 'Please just say hi.' },
      { kind: 'reply', text: 'Hi.' },
    ]);
  });

  it('leaves the turn out when the harness resumed without it (stopped before it wrote the prompt)', () => {
    const resumed = exchange(1, [user('Please just say hi.')], { text: 'Hi.' });
    expect(expectedConversation([interrupted, resumed], PROMPTS, 'human')).toEqual([
      { kind: 'prompt', author: 'human', text: 'Please just say hi.' },
      { kind: 'reply', text: 'Hi.' },
    ]);
  });

  it('keeps the prompt of an interrupted turn that nothing followed, and never its held answer', () => {
    expect(expectedConversation([interrupted], PROMPTS, 'human')).toEqual([
      { kind: 'prompt', author: 'human', text: 'Please tell a long story.' },
    ]);
  });
});
