import { sha1 } from '@noble/hashes/legacy.js';

/**
 * A UUID (version 5 layout: SHA-1 of a name) derived from `name` within one target's
 * `namespace`: the same session and seq give the same ids on every export, so exporting twice
 * writes the same bytes.
 */
export function namespacedUuid(namespace: string, name: string): string {
  const hash = sha1(new TextEncoder().encode(`${namespace}\u0000${name}`));
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = [...hash.slice(0, 16)].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/**
 * A tool call's id as model APIs accept it (`^[A-Za-z0-9_-]+$`, at most 64): kept when it fits,
 * else `<prefix>` and a hex id derived from it (another harness's ids, such as Codex's, may not fit).
 */
export function apiCallId(callId: string, prefix: string, namespace: string): string {
  return /^[A-Za-z0-9_-]{1,64}$/.test(callId)
    ? callId
    : `${prefix}${namespacedUuid(namespace, `call:${callId}`).replace(/-/g, '')}`;
}
