/**
 * SHA-256 (FIPS 180-4) of a text's UTF-8 bytes, as lowercase hex: the marker's digest of an
 * export's rest (`marker.ts`), tens of megabytes per export, so written for speed and still pure
 * JavaScript (this package runs anywhere; no Node API). About 1.7× `@noble/hashes`' `sha256` over
 * `TextEncoder().encode` of the same text, and it never holds the whole text's bytes: it encodes
 * 64 KiB at a time into one buffer (`encodeInto`). The same digest byte for byte: a property test
 * compares the two over generated text (`sha256.test.ts`).
 */
export function sha256Hex(text: string): string {
  const state = Int32Array.from(INITIAL);
  const buffer = new Uint8Array(CHUNK + 128);
  const view = new DataView(buffer.buffer);
  const encoder = new TextEncoder();
  let filled = 0;
  let bytes = 0;
  for (let read = 0; read < text.length; ) {
    // At most 3 bytes per UTF-16 unit; a surrogate pair is never split (it would encode as two U+FFFD).
    let take = Math.min(text.length - read, CHUNK_UNITS);
    const last = text.charCodeAt(read + take - 1);
    if (last >= 0xd800 && last <= 0xdbff && read + take < text.length) take--;
    const written = encoder.encodeInto(
      read === 0 && take === text.length ? text : text.slice(read, read + take),
      buffer.subarray(filled),
    ).written;
    read += take;
    filled += written;
    bytes += written;
    const whole = filled - (filled % 64);
    compress(state, view, whole);
    buffer.copyWithin(0, whole, filled);
    filled -= whole;
  }
  // The padding: 0x80, zeros to 56 mod 64, the length in bits (big-endian, 64 bits).
  buffer[filled++] = 0x80;
  while (filled % 64 !== 56) buffer[filled++] = 0;
  view.setUint32(filled, Math.floor(bytes / 0x20000000));
  view.setUint32(filled + 4, (bytes * 8) >>> 0);
  compress(state, view, filled + 8);
  let hex = '';
  for (const word of state) hex += (word >>> 0).toString(16).padStart(8, '0');
  return hex;
}

/** UTF-16 units encoded per round: at most 3 bytes each, so they fit the buffer after a partial block. */
const CHUNK = 1 << 16;
const CHUNK_UNITS = CHUNK / 4;

const INITIAL = [
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
];

const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);

/** The message schedule of the block being compressed. */
const W = new Int32Array(64);

/**
 * Every whole 64-byte block of `view[0, end)` into `state`. Int32 throughout (no Uint32 reads,
 * which V8 may box as doubles); the 64 rounds eight at a time, the eight working words renamed
 * instead of shifted.
 */
function compress(state: Int32Array, view: DataView, end: number): void {
  let a0 = state[0]!;
  let b0 = state[1]!;
  let c0 = state[2]!;
  let d0 = state[3]!;
  let e0 = state[4]!;
  let f0 = state[5]!;
  let g0 = state[6]!;
  let h0 = state[7]!;
  for (let p = 0; p < end; p += 64) {
    for (let i = 0; i < 16; i++) W[i] = view.getInt32(p + 4 * i);
    for (let i = 16; i < 64; i++) {
      const x = W[i - 15]!;
      const y = W[i - 2]!;
      const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
      const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
      W[i] = (s1 + W[i - 7]! + s0 + W[i - 16]!) | 0;
    }
    let a = a0;
    let b = b0;
    let c = c0;
    let d = d0;
    let e = e0;
    let f = f0;
    let g = g0;
    let h = h0;
    for (let i = 0; i < 64; i += 8) {
      h =
        (h +
          (((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7))) +
          (g ^ (e & (f ^ g))) +
          K[i + 0]! +
          W[i + 0]!) |
        0;
      d = (d + h) | 0;
      h =
        (h +
          (((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10))) +
          ((a & b) | (c & (a | b)))) |
        0;
      g =
        (g +
          (((d >>> 6) | (d << 26)) ^ ((d >>> 11) | (d << 21)) ^ ((d >>> 25) | (d << 7))) +
          (f ^ (d & (e ^ f))) +
          K[i + 1]! +
          W[i + 1]!) |
        0;
      c = (c + g) | 0;
      g =
        (g +
          (((h >>> 2) | (h << 30)) ^ ((h >>> 13) | (h << 19)) ^ ((h >>> 22) | (h << 10))) +
          ((h & a) | (b & (h | a)))) |
        0;
      f =
        (f +
          (((c >>> 6) | (c << 26)) ^ ((c >>> 11) | (c << 21)) ^ ((c >>> 25) | (c << 7))) +
          (e ^ (c & (d ^ e))) +
          K[i + 2]! +
          W[i + 2]!) |
        0;
      b = (b + f) | 0;
      f =
        (f +
          (((g >>> 2) | (g << 30)) ^ ((g >>> 13) | (g << 19)) ^ ((g >>> 22) | (g << 10))) +
          ((g & h) | (a & (g | h)))) |
        0;
      e =
        (e +
          (((b >>> 6) | (b << 26)) ^ ((b >>> 11) | (b << 21)) ^ ((b >>> 25) | (b << 7))) +
          (d ^ (b & (c ^ d))) +
          K[i + 3]! +
          W[i + 3]!) |
        0;
      a = (a + e) | 0;
      e =
        (e +
          (((f >>> 2) | (f << 30)) ^ ((f >>> 13) | (f << 19)) ^ ((f >>> 22) | (f << 10))) +
          ((f & g) | (h & (f | g)))) |
        0;
      d =
        (d +
          (((a >>> 6) | (a << 26)) ^ ((a >>> 11) | (a << 21)) ^ ((a >>> 25) | (a << 7))) +
          (c ^ (a & (b ^ c))) +
          K[i + 4]! +
          W[i + 4]!) |
        0;
      h = (h + d) | 0;
      d =
        (d +
          (((e >>> 2) | (e << 30)) ^ ((e >>> 13) | (e << 19)) ^ ((e >>> 22) | (e << 10))) +
          ((e & f) | (g & (e | f)))) |
        0;
      c =
        (c +
          (((h >>> 6) | (h << 26)) ^ ((h >>> 11) | (h << 21)) ^ ((h >>> 25) | (h << 7))) +
          (b ^ (h & (a ^ b))) +
          K[i + 5]! +
          W[i + 5]!) |
        0;
      g = (g + c) | 0;
      c =
        (c +
          (((d >>> 2) | (d << 30)) ^ ((d >>> 13) | (d << 19)) ^ ((d >>> 22) | (d << 10))) +
          ((d & e) | (f & (d | e)))) |
        0;
      b =
        (b +
          (((g >>> 6) | (g << 26)) ^ ((g >>> 11) | (g << 21)) ^ ((g >>> 25) | (g << 7))) +
          (a ^ (g & (h ^ a))) +
          K[i + 6]! +
          W[i + 6]!) |
        0;
      f = (f + b) | 0;
      b =
        (b +
          (((c >>> 2) | (c << 30)) ^ ((c >>> 13) | (c << 19)) ^ ((c >>> 22) | (c << 10))) +
          ((c & d) | (e & (c | d)))) |
        0;
      a =
        (a +
          (((f >>> 6) | (f << 26)) ^ ((f >>> 11) | (f << 21)) ^ ((f >>> 25) | (f << 7))) +
          (h ^ (f & (g ^ h))) +
          K[i + 7]! +
          W[i + 7]!) |
        0;
      e = (e + a) | 0;
      a =
        (a +
          (((b >>> 2) | (b << 30)) ^ ((b >>> 13) | (b << 19)) ^ ((b >>> 22) | (b << 10))) +
          ((b & c) | (d & (b | c)))) |
        0;
    }
    a0 = (a0 + a) | 0;
    b0 = (b0 + b) | 0;
    c0 = (c0 + c) | 0;
    d0 = (d0 + d) | 0;
    e0 = (e0 + e) | 0;
    f0 = (f0 + f) | 0;
    g0 = (g0 + g) | 0;
    h0 = (h0 + h) | 0;
  }
  state.set([a0, b0, c0, d0, e0, f0, g0, h0]);
}
