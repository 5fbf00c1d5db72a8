import { sha1 } from '@noble/hashes/legacy.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { namespacedUuid } from './derived-id.js';
import { sha1Words } from './sha1.js';

const hex = (words: Int32Array): string =>
  [...words].map((w) => (w >>> 0).toString(16).padStart(8, '0')).join('');
const reference = (text: string): string => bytesToHex(sha1(new TextEncoder().encode(text)));

/** The UUID as it was derived before: `@noble/hashes`' SHA-1, version and variant bits set. */
function referenceUuid(namespace: string, name: string): string {
  const hash = sha1(new TextEncoder().encode(`${namespace}\u0000${name}`));
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const h = bytesToHex(hash.slice(0, 16));
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

describe('sha1Words', () => {
  it('is SHA-1: the standard vectors', () => {
    expect(hex(sha1Words(''))).toBe('da39a3ee5e6b4b0d3255bfef95601890afd80709');
    expect(hex(sha1Words('abc'))).toBe('a9993e364706816aba3e25717850c26c9cd0d89d');
    expect(hex(sha1Words('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq'))).toBe(
      '84983e441c3bd26ebaae4aa1f95129e5e54670f1',
    );
  });

  it('gives the digest of the text’s UTF-8 bytes at every length, after a longer one too', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
        expect(hex(sha1Words(text))).toBe(reference(text));
      }),
      { numRuns: 100 },
    );
    for (let length = 0; length < 200; length++)
      expect(hex(sha1Words('é'.repeat(length)))).toBe(reference('é'.repeat(length)));
  });

  it('derives the same UUIDs as before', () => {
    fc.assert(
      fc.property(fc.string(), fc.string({ unit: 'grapheme' }), (namespace, name) => {
        expect(namespacedUuid(namespace, name)).toBe(referenceUuid(namespace, name));
      }),
      { numRuns: 100 },
    );
  });
});
