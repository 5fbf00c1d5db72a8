import { describe, expect, it } from 'vitest';
import { placeChat, type ChatOutline } from './chat-place.js';

const chat = (
  file: string,
  startTime: number | undefined,
  ids: string[],
  delegations: ChatOutline['delegations'] = [],
): ChatOutline => ({
  file,
  sessionId: 's',
  startTime,
  ids,
  delegations,
});

describe('placeChat', () => {
  it('a file whose ids are a prefix or a subset of another is a copy of it (the main chat)', () => {
    const old = chat('a.json', 0, ['m1', 'm2']);
    const grown = chat('a.jsonl', 0, ['m1', 'm2', 'm3']);
    expect(placeChat(old, [grown])).toEqual({ kind: 'main' });
    expect(placeChat(grown, [old])).toEqual({ kind: 'main' });
    const rewound = chat('b.jsonl', 0, ['m1', 'm3']);
    expect(placeChat(rewound, [grown])).toEqual({ kind: 'main' });
  });

  it('chats with no id in common are distinct; the one that started first is the main chat', () => {
    const human = chat('z-human.json', 100, ['h1', 'h2']);
    const nested = chat('a-nested.json', 200, ['n1', 'n2', 'n3']);
    expect(placeChat(human, [nested])).toEqual({ kind: 'main' });
    expect(placeChat(nested, [human])).toEqual({ kind: 'distinct', key: 'n1' });
  });

  it('a distinct chat that started after a delegate_to_agent call is that agent’s chat', () => {
    const human = chat(
      'h.json',
      100,
      ['h1', 'h2'],
      [
        { at: 110, agent: 'first' },
        { at: 150, agent: 'second' },
        { at: 900, agent: 'later' },
      ],
    );
    expect(placeChat(chat('n.json', 160, ['n1']), [human])).toEqual({
      kind: 'distinct',
      key: 'n1',
      delegatedBy: { agent: 'second' },
    });
  });

  it('copies of a distinct chat share its key; other sessions and empty chats take no part', () => {
    const human = chat('h.json', 100, ['h1']);
    const nestedOld = chat('n.json', 200, ['n1']);
    const nestedNew = chat('n.jsonl', 200, ['n1', 'n2']);
    const other = { ...chat('o.json', 0, ['x1']), sessionId: 'other' };
    const empty = chat('e.json', 0, []);
    for (const self of [nestedOld, nestedNew])
      expect(placeChat(self, [human, nestedOld, nestedNew, other, empty])).toEqual({
        kind: 'distinct',
        key: 'n1',
      });
    expect(placeChat(human, [nestedOld, other, empty])).toEqual({ kind: 'main' });
    expect(placeChat(empty, [human])).toEqual({ kind: 'main' });
  });

  it('without start times the first path is the main chat', () => {
    const a = chat('a.json', undefined, ['a1']);
    const b = chat('b.json', undefined, ['b1']);
    expect(placeChat(a, [b])).toEqual({ kind: 'main' });
    expect(placeChat(b, [a])).toEqual({ kind: 'distinct', key: 'b1' });
  });
});

describe('placeChat: a nested chat is the chat of the delegation call whose inputs its prompt holds', () => {
  const ask = (question: string) =>
    `Your task is to answer the following question about Gemini CLI:\n<question>\n${question}\n</question>`;
  const nested = (file: string, start: number, id: string, question: string): ChatOutline => ({
    ...chat(file, start, [id]),
    prompt: ask(question),
  });
  const person = (delegations: ChatOutline['delegations']): ChatOutline =>
    chat('h.json', 100, ['h1', 'h2'], delegations);
  const call = (id: string, at: number, question: string, agent = 'cli_help') => ({
    id,
    at,
    agent,
    inputs: [question],
  });

  it('a call written after the nested chat started (recorded when the tool completed) is its call', () => {
    const human = person([call('c1', 400, 'How do I set a theme?')]);
    expect(placeChat(nested('n.json', 200, 'n1', 'How do I set a theme?'), [human])).toEqual({
      kind: 'distinct',
      key: 'n1',
      delegatedBy: { agent: 'cli_help' },
    });
  });

  it('a call written before the nested chat started is its call, though another call was made since', () => {
    // The model asked for both; the investigator's chat starts later (sequential runs).
    const human = person([
      call('c1', 150, 'How do I set a theme?', 'cli_help'),
      call('c2', 180, 'Find the slow query', 'codebase_investigator'),
    ]);
    const help = nested('n.json', 200, 'n1', 'How do I set a theme?');
    const investigator = nested('m.json', 500, 'm1', 'Find the slow query');
    expect(placeChat(help, [human, investigator])).toMatchObject({ delegatedBy: { agent: 'cli_help' } });
    expect(placeChat(investigator, [human, help])).toMatchObject({
      delegatedBy: { agent: 'codebase_investigator' },
    });
  });

  it('two calls with one question: time gives each chat its own call, in order', () => {
    const human = person([call('c2', 900, 'Same?', 'second'), call('c1', 400, 'Same?', 'first')]);
    const a = nested('a.json', 300, 'a1', 'Same?');
    const b = nested('b.json', 800, 'b1', 'Same?');
    expect(placeChat(a, [human, b])).toMatchObject({ key: 'a1', delegatedBy: { agent: 'first' } });
    expect(placeChat(b, [human, a])).toMatchObject({ key: 'b1', delegatedBy: { agent: 'second' } });
  });

  it('a nested chat whose prompt holds no call’s inputs stays a session of its own', () => {
    const human = person([call('c1', 150, 'How do I set a theme?')]);
    expect(placeChat(nested('n.json', 200, 'n1', 'Something else entirely'), [human])).toEqual({
      kind: 'distinct',
      key: 'n1',
    });
  });

  it('copies of the person’s chat record one call once: it runs one nested chat, not two', () => {
    const old = person([call('c1', 150, 'Same?')]);
    const migrated = { ...person([call('c1', 150, 'Same?')]), file: 'h.jsonl', ids: ['h1', 'h2', 'h3'] };
    const a = nested('a.json', 200, 'a1', 'Same?');
    const b = nested('b.json', 300, 'b1', 'Same?');
    expect(placeChat(a, [old, migrated, b])).toMatchObject({ delegatedBy: { agent: 'cli_help' } });
    expect(placeChat(b, [old, migrated, a])).toEqual({ kind: 'distinct', key: 'b1' });
  });
});
