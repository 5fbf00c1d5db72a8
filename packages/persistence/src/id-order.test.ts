import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareSessionIds } from './id-order.js';

describe('compareSessionIds', () => {
  it('orders as UTF-8 bytes do (SQLite BINARY, PostgreSQL COLLATE "C"), not as UTF-16 units', () => {
    // Any well-formed string: BMP, private use (E000–FFFF) and astral characters mixed.
    const id = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 6 });
    fc.assert(
      fc.property(id, id, (a, b) => {
        expect(Math.sign(compareSessionIds(a, b))).toBe(
          Math.sign(Buffer.compare(Buffer.from(a), Buffer.from(b))),
        );
      }),
    );
    expect(compareSessionIds('\uE000', '\u{1F600}')).toBeLessThan(0);
    expect('\uE000' < '\u{1F600}').toBe(false);
  });
});
