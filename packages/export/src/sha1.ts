/**
 * SHA-1 (FIPS 180-4) of a short text's UTF-8 bytes: the name hash of the export's derived UUIDs
 * (`derived-id.ts`, one per record, tens of thousands per export). Pure JavaScript, with none of
 * a general hasher's per-call setup: about ten times `@noble/hashes`' `sha1` on such names, the
 * same digest (`sha1.test.ts` compares the two). Returns the five state words (big-endian).
 */
export function sha1Words(text: string): Int32Array {
  const bytes = encoder.encode(text);
  const length = bytes.length;
  // The message, its 0x80 and zeros to 56 mod 64, then the length in bits: whole blocks.
  const blocks = Math.ceil((length + 9) / 64);
  const words = blocks * 16;
  if (message.length < words) message = new Int32Array(words * 2);
  message.fill(0, 0, words);
  for (let i = 0; i < length; i++) message[i >> 2]! |= bytes[i]! << (24 - 8 * (i & 3));
  message[length >> 2]! |= 0x80 << (24 - 8 * (length & 3));
  message[words - 2] = Math.floor(length / 0x20000000);
  message[words - 1] = (length * 8) | 0;
  let h0 = 0x67452301;
  let h1 = 0xefcdab89 | 0;
  let h2 = 0x98badcfe | 0;
  let h3 = 0x10325476;
  let h4 = 0xc3d2e1f0 | 0;
  for (let block = 0; block < words; block += 16) {
    for (let i = 0; i < 16; i++) W[i] = message[block + i]!;
    for (let i = 16; i < 80; i++) {
      const x = W[i - 3]! ^ W[i - 8]! ^ W[i - 14]! ^ W[i - 16]!;
      W[i] = (x << 1) | (x >>> 31);
    }
    let a = h0;
    let b = h1;
    let c = h2;
    let d = h3;
    let e = h4;
    for (let i = 0; i < 80; i++) {
      const f =
        i < 20
          ? ((b & c) | (~b & d)) + 0x5a827999
          : i < 40
            ? (b ^ c ^ d) + 0x6ed9eba1
            : i < 60
              ? ((b & c) | (b & d) | (c & d)) + (0x8f1bbcdc | 0)
              : (b ^ c ^ d) + (0xca62c1d6 | 0);
      const t = (((a << 5) | (a >>> 27)) + f + e + W[i]!) | 0;
      e = d;
      d = c;
      c = (b << 30) | (b >>> 2);
      b = a;
      a = t;
    }
    h0 = (h0 + a) | 0;
    h1 = (h1 + b) | 0;
    h2 = (h2 + c) | 0;
    h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0;
  }
  return Int32Array.of(h0, h1, h2, h3, h4);
}

const encoder = new TextEncoder();
/** The padded message as big-endian words, reused (grown for a longer text). */
let message = new Int32Array(64);
const W = new Int32Array(80);
