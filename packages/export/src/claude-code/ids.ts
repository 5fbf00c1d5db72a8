import { apiCallId, namespacedUuid } from '../derived-id.js';

/** Fixed namespace of Strand's Claude Code exports (a UUID v5 namespace). */
const NAMESPACE = 'strand.export.claude-code';

/** A UUID derived from `name` in the Claude Code namespace (`namespacedUuid`). */
export const derivedUuid = (name: string): string => namespacedUuid(NAMESPACE, name);

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

/** A tool call's id as the Messages API accepts it (`apiCallId`). */
export const claudeToolUseId = (callId: string): string => apiCallId(callId, 'toolu_strand_', NAMESPACE);

/**
 * The agent id a child of an export is filed under (`subagents/agent-<id>.jsonl`): `a` and 16
 * hex digits, the form Claude Code gives its own agents (it refuses others in `.meta.json`),
 * derived from the child's Strand id so a re-export names the same file.
 */
export const claudeAgentId = (strandId: string): string =>
  `a${derivedUuid(`agent:${strandId}`).replace(/-/g, '').slice(0, 16)}`;
