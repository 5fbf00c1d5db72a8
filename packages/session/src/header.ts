import { SessionError } from './errors.js';
import { isSessionId, type SessionId } from './ids.js';

/** The header format version this build writes and the highest it reads. */
export const SESSION_HEADER_VERSION = 1;

/**
 * The logical header: what every reader may see without reading the log. It says whether the
 * session was seeded from a parent prefix (`isSeeded`) but never the integer cut — a header-only
 * reader must not learn it (the listing contract: the exact `inheritedEventCount` travels separately).
 */
export interface SessionHeader {
  readonly version: number;
  readonly id: SessionId;
  /** Integer milliseconds since the epoch. */
  readonly createdAt: number;
  readonly cwd?: string;
  readonly parentSession?: SessionId;
  /** `'subagent'` marks a subagent child. */
  readonly origin?: 'subagent';
  readonly delegationDepth?: number;
  /** The agent preset the session was created with; `null` means "explicitly none". */
  readonly agentPreset?: string | null;
  /** The session whose prefix this one was seeded from, if any. */
  readonly forkedFrom?: SessionId;
  readonly isSeeded: boolean;
}

const HEADER_KEYS = new Set([
  'version',
  'id',
  'createdAt',
  'cwd',
  'parentSession',
  'origin',
  'delegationDepth',
  'agentPreset',
  'forkedFrom',
  'isSeeded',
]);

function bad(why: string): never {
  throw new SessionError('SESSION_HEADER_INVALID', `invalid session header: ${why}`);
}

/** Validates an untrusted header (from disk, the wire or an importer) and returns it frozen. */
export function parseSessionHeader(raw: unknown): SessionHeader {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) bad('not an object');
  const h = raw as Record<string, unknown>;
  for (const key of Object.keys(h)) if (!HEADER_KEYS.has(key)) bad(`unknown key ${key}`);
  if (!Number.isSafeInteger(h.version) || (h.version as number) < 1)
    bad('version must be a positive integer');
  if ((h.version as number) > SESSION_HEADER_VERSION)
    bad(`format version ${String(h.version)} is newer than this build reads (${SESSION_HEADER_VERSION})`);
  if (!isSessionId(h.id)) bad('id');
  if (!Number.isSafeInteger(h.createdAt)) bad('createdAt must be integer milliseconds');
  if (h.cwd !== undefined && typeof h.cwd !== 'string') bad('cwd');
  if (h.parentSession !== undefined && !isSessionId(h.parentSession)) bad('parentSession');
  if (h.origin !== undefined && h.origin !== 'subagent') bad('origin');
  if (
    h.delegationDepth !== undefined &&
    (!Number.isSafeInteger(h.delegationDepth) || (h.delegationDepth as number) < 0)
  )
    bad('delegationDepth');
  if (h.agentPreset !== undefined && h.agentPreset !== null && typeof h.agentPreset !== 'string')
    bad('agentPreset');
  if (h.forkedFrom !== undefined && !isSessionId(h.forkedFrom)) bad('forkedFrom');
  if (typeof h.isSeeded !== 'boolean') bad('isSeeded must be a boolean');
  return Object.freeze({ ...h }) as unknown as SessionHeader;
}

export interface NewSessionHeader {
  readonly id: SessionId;
  readonly createdAt?: number;
  readonly cwd?: string;
  readonly parentSession?: SessionId;
  readonly origin?: 'subagent';
  readonly delegationDepth?: number;
  readonly agentPreset?: string | null;
}

/** Builds a validated header for a new, unseeded session. */
export function newSessionHeader(init: NewSessionHeader): SessionHeader {
  return parseSessionHeader({
    ...init,
    version: SESSION_HEADER_VERSION,
    createdAt: init.createdAt ?? Date.now(),
    isSeeded: false,
  });
}
