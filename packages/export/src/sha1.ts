import { sha1 } from '@noble/hashes/legacy.js';

const encoder = new TextEncoder();

/**
 * SHA-1 (`@noble/hashes`) of a short text's UTF-8 bytes, as its five state words (big-endian):
 * the name hash of the export's derived UUIDs (`derived-id.ts`).
 */
export function sha1Words(text: string): Int32Array {
  const digest = sha1(encoder.encode(text));
  const view = new DataView(digest.buffer, digest.byteOffset, digest.byteLength);
  return Int32Array.from({ length: 5 }, (_, i) => view.getInt32(i * 4));
}
