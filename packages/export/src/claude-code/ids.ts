import { sha1 } from '@noble/hashes/legacy.js';

/** Fixed namespace of Strand's Claude Code exports (a UUID v5 namespace). */
const NAMESPACE = 'strand.export.claude-code';

/**
 * A UUID (version 5 layout: SHA-1 of a name) derived from `name`: the same session and seq give
 * the same ids on every export, so exporting twice writes the same bytes.
 */
export function derivedUuid(name: string): string {
  const hash = sha1(new TextEncoder().encode(`${NAMESPACE}\u0000${name}`));
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = [...hash.slice(0, 16)].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** The Claude Code session id an export of `strandId` resumes by: the same however it grows. */
export const claudeSessionUuid = (strandId: string): string => derivedUuid(`session:${strandId}`);

/** The uuid of the record written for the event at `seq` (`part` tells apart records of one event). */
export const claudeRecordUuid = (strandId: string, seq: number, part = 0): string =>
  derivedUuid(`record:${strandId}:${seq}:${part}`);

/** Longest project folder name Claude Code writes as it is (longer ones get a hash suffix). */
const MAX_SLUG = 200;

/**
 * The folder under `projects/` where Claude Code files a session of `cwd`: every character
 * outside `[A-Za-z0-9]` as `-` (`/home/ana/shop` → `-home-ana-shop`). Undefined for a path whose
 * name Claude Code would shorten with a hash of its own, which this writer does not reproduce.
 */
export function claudeProjectSlug(cwd: string): string | undefined {
  const slug = cwd.replace(/[^A-Za-z0-9]/g, '-');
  return slug.length > MAX_SLUG ? undefined : slug;
}

/**
 * A tool call's id as the Messages API accepts it (`^[A-Za-z0-9_-]+$`, at most 64): kept when it
 * fits, else one derived from it (another harness's ids, such as Codex's, may not fit).
 */
export function claudeToolUseId(callId: string): string {
  return /^[A-Za-z0-9_-]{1,64}$/.test(callId)
    ? callId
    : `toolu_strand_${derivedUuid(`call:${callId}`).replace(/-/g, '')}`;
}
