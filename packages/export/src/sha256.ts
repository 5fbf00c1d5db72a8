import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';

/** Bytes encoded per step: the text is never held as one byte array. */
const CHUNK = 1 << 16;
/** UTF-16 units per step: at most 3 UTF-8 bytes each, so a step always fits its buffer. */
const CHUNK_UNITS = Math.floor(CHUNK / 3);

/**
 * SHA-256 of a text's UTF-8 bytes, as lowercase hex: the marker's digest of an export's rest
 * (`marker.ts`), tens of megabytes per export. The hashing is `@noble/hashes` (pure JavaScript,
 * so this package runs anywhere); the text is encoded 64 KiB at a time into one buffer
 * (`encodeInto`) and fed to the incremental hasher, so the whole text's bytes are never copied
 * out at once. A surrogate pair is never split between steps (it would encode as two U+FFFD); a
 * property test holds the digest equal to hashing the whole encoded text (`sha256.test.ts`).
 */
export function sha256Hex(text: string): string {
  return utf8Sha256(text).digest;
}

/** `sha256Hex` of the text and the length of its UTF-8 bytes, in one pass. */
export function utf8Sha256(text: string): { readonly digest: string; readonly bytes: number } {
  const hasher = sha256.create();
  let bytes = 0;
  const buffer = new Uint8Array(CHUNK);
  const encoder = new TextEncoder();
  for (let read = 0; read < text.length; ) {
    let take = Math.min(text.length - read, CHUNK_UNITS);
    const last = text.charCodeAt(read + take - 1);
    if (last >= 0xd800 && last <= 0xdbff && read + take < text.length) take--;
    const part = read === 0 && take === text.length ? text : text.slice(read, read + take);
    const written = encoder.encodeInto(part, buffer).written;
    hasher.update(buffer.subarray(0, written));
    bytes += written;
    read += take;
  }
  return { digest: bytesToHex(hasher.digest()), bytes };
}
