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
