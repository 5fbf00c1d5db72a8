import { describe, expect, it } from 'vitest';
import { addShapes, drift, kindOf, type Shapes } from './drift.js';

const shapes = (...lines: object[]): Shapes => {
  const out: Shapes = new Map();
  addShapes(lines.map((l) => JSON.stringify(l)).join('\n'), out);
  return out;
};

describe('transcript drift', () => {
  it('names a record by its type and the discriminator the harness nests', () => {
    expect(kindOf({ type: 'event_msg', payload: { type: 'token_count' } })).toBe('event_msg:token_count');
    expect(kindOf({ type: 'attachment', attachment: { type: 'date' } })).toBe('attachment:date');
    expect(kindOf({ type: 'system', subtype: 'turn_duration' })).toBe('system:turn_duration');
    expect(kindOf({ $set: { lastUpdated: 'x' } })).toBe('{$set}');
  });

  it('reports kinds and fields a newer version writes that the known one did not, and nothing else', () => {
    const known = shapes({ type: 'user', message: { content: 'a' } }, { type: 'cost-state', total: 1 });
    const newer = shapes(
      { type: 'user', message: { content: 'b', origin: { kind: 'x' } } },
      { type: 'cost-state', total: 2 },
      { type: 'atis-latch', atis: '' },
    );
    expect(drift(known, newer)).toEqual([
      'new record kind atis-latch',
      'user: new field message.origin',
      'user: new field message.origin.kind',
    ]);
    expect(drift(newer, newer)).toEqual([]);
  });

  it('reads a whole-JSON file as one record, and stops three fields deep, where content begins', () => {
    const out: Shapes = new Map();
    addShapes(
      JSON.stringify({ sessionId: 's', messages: [{ id: 'm', content: [{ text: { deep: 1 } }] }] }),
      out,
    );
    expect([...out.get('{messages,sessionId}')!].sort()).toEqual([
      'messages',
      'messages[].content',
      'messages[].content[].text',
      'messages[].id',
      'sessionId',
    ]);
  });
});
