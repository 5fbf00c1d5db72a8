import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from './cursor.js';

describe('search cursors', () => {
  it('round-trips and stays opaque (base64url)', () => {
    const cursor = { indexId: 'f3a1', generation: 3, snapshotId: 17, offset: 40 };
    const text = encodeCursor(cursor);
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(text)).toEqual(cursor);
  });

  it('refuses anything it did not write as an invalid query', () => {
    const bad = [
      '',
      'not base64!',
      Buffer.from('{"v":2,"i":"x","g":1,"s":1,"o":0}').toString('base64url'),
      Buffer.from('{"v":1,"i":"x","g":-1,"s":1,"o":0}').toString('base64url'),
      Buffer.from('[1,2]').toString('base64url'),
      'x'.repeat(600),
    ];
    for (const text of bad)
      expect(() => decodeCursor(text)).toThrow(expect.objectContaining({ code: 'SEARCH_INVALID_QUERY' }));
  });
});
