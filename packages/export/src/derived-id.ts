import { sha1Words } from './sha1.js';

/**
 * A UUID (version 5 layout: SHA-1 of a name) derived from `name` within one target's
 * `namespace`: the same session and seq give the same ids on every export, so exporting twice
 * writes the same bytes.
 */
export function namespacedUuid(namespace: string, name: string): string {
  const words = sha1Words(`${namespace}\u0000${name}`);
  // The version (5) in byte 6's high nibble, the variant (0b10) in byte 8's top bits.
  const hex =
    hex8(words[0]!) +
    hex8((words[1]! & ~0xf000) | 0x5000) +
    hex8((words[2]! & 0x3fffffff) | 0x80000000) +
    hex8(words[3]!);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

const hex8 = (word: number): string => (word >>> 0).toString(16).padStart(8, '0');

/**
 * A tool call's id as model APIs accept it (`^[A-Za-z0-9_-]+$`, at most 64): kept when it fits,
 * else `<prefix>` and a hex id derived from it (another harness's ids, such as Codex's, may not fit).
 */
export function apiCallId(callId: string, prefix: string, namespace: string): string {
  return /^[A-Za-z0-9_-]{1,64}$/.test(callId)
    ? callId
    : `${prefix}${namespacedUuid(namespace, `call:${callId}`).replace(/-/g, '')}`;
}
