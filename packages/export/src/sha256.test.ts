import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from './sha256.js';

/** The digest the marker had before: `@noble/hashes` over the whole text's UTF-8. */
const reference = (text: string): string => bytesToHex(sha256(new TextEncoder().encode(text)));

// Any UTF-16 units: whole characters, emoji (surrogate pairs) and lone surrogates (UTF-8 has no
// place for them; both encode them as U+FFFD).
const unit = fc.oneof(
  fc.string({ unit: 'grapheme' }),
  fc.constantFrom('😀', 'é', '\n', '"', '\u{10ffff}'),
  fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code)),
);
const text = fc.array(unit, { maxLength: 40 }).map((parts) => parts.join(''));

describe('sha256Hex', () => {
  it('is SHA-256: the standard vectors', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
  });

  it('gives the digest of the text’s UTF-8 bytes, whatever the text and its length', () => {
    fc.assert(
      fc.property(text, fc.nat({ max: 70_000 }), (part, length) => {
        // Long texts too: they are encoded a chunk at a time, and a chunk may end inside a pair.
        const long = part === '' ? '' : part.repeat(Math.ceil(length / part.length) || 1);
        expect(sha256Hex(part)).toBe(reference(part));
        expect(sha256Hex(long)).toBe(reference(long));
      }),
      { numRuns: 150 },
    );
  });

  it('keeps a surrogate pair whole where a chunk ends, and pads at every length of the last block', () => {
    for (let pad = 16_380; pad < 16_390; pad++) {
      const around = `${'a'.repeat(pad)}😀\ud800😀${'b'.repeat(pad)}`;
      expect(sha256Hex(around)).toBe(reference(around));
    }
    for (let length = 0; length < 130; length++)
      expect(sha256Hex('x'.repeat(length))).toBe(reference('x'.repeat(length)));
  });
});
