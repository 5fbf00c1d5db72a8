import { z } from 'zod';
import type { DeepReadonly } from './deep-readonly.js';
import { SessionError } from './errors.js';
import { STRAND_HARNESS, harnessNameSchema } from './harness-names.js';
import { isSessionId, type SessionId } from './ids.js';
import { isRecord } from './json-shape.js';

/** The header format version this build writes and the highest it reads. */
export const SESSION_HEADER_VERSION = 1;

const sessionIdSchema = z.custom<SessionId>(isSessionId, {
  message: 'must be a session id (1–128 characters, no control characters)',
});

/**
 * Where an imported session came from: the harness that owns it and the id that harness gives it
 * (Claude Code's `sessionId` or a subagent's `agentId`, a Codex thread id, Gemini's `sessionId`).
 * Written once, by the importer that creates the session; Strand's own sessions have none. A
 * session with a source is read-only in Strand: the other harness owns its log.
 */
export const sessionSourceSchema = z.strictObject({
  /** An open vocabulary (`harness-names.ts`): any harness name but `strand`, Strand's own. */
  harness: harnessNameSchema.refine((name) => name !== STRAND_HARNESS, {
    message: `"${STRAND_HARNESS}" names Strand's own sessions, which have no source`,
  }),
  sourceId: z.string().min(1).max(256),
});
export type SessionSource = DeepReadonly<z.output<typeof sessionSourceSchema>>;

/**
 * The header's fields, described once: the stored header (`sessionHeaderSchema`, strict) and the
 * wire's (`protocol`, the same fields in a plain object) are built from them, and every list of
 * header keys (`SESSION_HEADER_KEYS`, the import's comparison, the subagent witness) derives from
 * this one.
 */
export const SESSION_HEADER_FIELDS = {
  /** The format version (see `SESSION_HEADER_VERSION`). */
  version: z.number().int().min(1),
  id: sessionIdSchema,
  /** Integer milliseconds since the epoch. */
  createdAt: z.number().int(),
  cwd: z.string().optional(),
  parentSession: sessionIdSchema.optional(),
  /** `'subagent'` marks a subagent child. */
  origin: z.literal('subagent').optional(),
  delegationDepth: z.number().int().min(0).optional(),
  /** The agent preset the session was created with; `null` means "explicitly none". */
  agentPreset: z.string().nullable().optional(),
  /** The session whose prefix this one was seeded from, if any. */
  forkedFrom: sessionIdSchema.optional(),
  /** Set on a session imported from another harness: read-only in Strand (see `isReadOnlySession`). */
  source: sessionSourceSchema.optional(),
  isSeeded: z.boolean(),
};

/**
 * The logical header: what every reader may see without reading the log. It says whether the
 * session was seeded from a parent prefix (`isSeeded`) but never the integer cut — a header-only
 * reader must not learn it (the listing contract: the exact `inheritedEventCount` travels separately).
 */
export const sessionHeaderSchema = z.strictObject(SESSION_HEADER_FIELDS);
export type SessionHeader = DeepReadonly<z.output<typeof sessionHeaderSchema>>;
export type SessionHeaderKey = keyof SessionHeader;
export const SESSION_HEADER_KEYS = Object.freeze(
  Object.keys(SESSION_HEADER_FIELDS),
) as readonly SessionHeaderKey[];

function bad(why: string): never {
  throw new SessionError('SESSION_HEADER_INVALID', `invalid session header: ${why}`);
}

/**
 * Headers this module returned: frozen, `source` included (the one nested field), so each still
 * holds what was checked. Passing one again (an importer's header handed to its persistence,
 * which checks what it is given) costs a lookup, not the schema.
 */
const checkedHeaders = new WeakSet<object>();

/** Validates an untrusted header (from disk, the wire or an importer) and returns it frozen. */
export function parseSessionHeader(raw: unknown): SessionHeader {
  if (!isRecord(raw)) bad('not an object');
  if (checkedHeaders.has(raw)) return raw as unknown as SessionHeader;
  // A newer build's header is named as such, not as a field that does not match.
  if (Number.isSafeInteger(raw.version) && (raw.version as number) > SESSION_HEADER_VERSION)
    bad(`format version ${String(raw.version)} is newer than this build reads (${SESSION_HEADER_VERSION})`);
  const parsed = sessionHeaderSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    bad(issue.path.length === 0 ? issue.message : `${issue.path.join('.')}: ${issue.message}`);
  }
  // The input, not zod's copy: it is frozen as it came (the schema refused every other key).
  const header = { ...raw };
  if (header.source !== undefined) header.source = Object.freeze({ ...(header.source as object) });
  checkedHeaders.add(Object.freeze(header));
  return header as unknown as SessionHeader;
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
