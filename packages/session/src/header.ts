import { SessionError } from './errors.js';
import { isSessionId, type SessionId } from './ids.js';

/** The harnesses whose sessions Strand follows and imports (a header's `source.harness`). */
export const SOURCE_HARNESSES = ['claude-code', 'codex', 'gemini'] as const;
export type SourceHarness = (typeof SOURCE_HARNESSES)[number];

/**
 * Where an imported session came from: the harness that owns it and the id that harness gives it
 * (Claude Code's `sessionId` or a subagent's `agentId`, a Codex thread id, Gemini's `sessionId`).
 * Written once, by the importer that creates the session; Strand's own sessions have none. A
 * session with a source is read-only in Strand: the other harness owns its log.
 */
export interface SessionSource {
  readonly harness: SourceHarness;
  readonly sourceId: string;
}

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
  /** Set on a session imported from another harness: read-only in Strand (see `isReadOnlySession`). */
  readonly source?: SessionSource;
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
  'source',
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
  if (h.source !== undefined) checkSource(h.source);
  if (typeof h.isSeeded !== 'boolean') bad('isSeeded must be a boolean');
  const header = { ...h };
  if (header.source !== undefined) header.source = Object.freeze({ ...(header.source as object) });
  return Object.freeze(header) as unknown as SessionHeader;
}

function checkSource(raw: unknown): void {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) bad('source must be an object');
  const source = raw as Record<string, unknown>;
  for (const key of Object.keys(source))
    if (key !== 'harness' && key !== 'sourceId') bad(`unknown key source.${key}`);
  if (!(SOURCE_HARNESSES as readonly unknown[]).includes(source.harness)) bad('source.harness');
  if (typeof source.sourceId !== 'string' || source.sourceId.length === 0 || source.sourceId.length > 256)
    bad('source.sourceId must be a non-empty string of at most 256 characters');
}

/**
 * True for a session another harness owns (its header has a `source`): reads, follows and forks
 * are allowed, commands that append are refused, and crash repair never closes its open turn —
 * the source closes it when it shows the end.
 */
export function isReadOnlySession(header: Pick<SessionHeader, 'source'>): boolean {
  return header.source !== undefined;
}

/** Throws `SESSION_READ_ONLY` for a session with a `source`; the one check every append command path calls. */
export function assertWritableSession(header: Pick<SessionHeader, 'id' | 'source'>): void {
  const source = header.source;
  if (source === undefined) return;
  throw new SessionError(
    'SESSION_READ_ONLY',
    `session ${header.id} is read-only: it was imported from ${source.harness}, which owns it (fork it to continue in Strand)`,
    { details: { sessionId: header.id, harness: source.harness } },
  );
}

export interface NewSessionHeader {
  readonly id: SessionId;
  readonly createdAt?: number;
  readonly cwd?: string;
  readonly parentSession?: SessionId;
  readonly origin?: 'subagent';
  readonly delegationDepth?: number;
  readonly agentPreset?: string | null;
  readonly source?: SessionSource;
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
