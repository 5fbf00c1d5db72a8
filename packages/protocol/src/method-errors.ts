import type { WireErrorCode } from './errors.js';
import type { MethodName } from './methods.js';

/**
 * Which codes each wire method may answer with, beyond `ANY_REQUEST_ERRORS`: the refusals a client
 * should be ready to show for it. docs/protocol.md's "Errors by method" table is checked against
 * this (`packages/host/src/method-errors-doc.test.ts`), so the document and the code cannot drift.
 * A package failure outside these lists still travels with its own code; a bug is
 * `RPC_INTERNAL_ERROR`.
 */

/** What any request may meet before or instead of its method: framing, params, load, a bug. */
export const ANY_REQUEST_ERRORS = [
  'RPC_PARSE_ERROR',
  'RPC_INVALID_REQUEST',
  'RPC_METHOD_NOT_FOUND',
  'RPC_INVALID_PARAMS',
  'RPC_INTERNAL_ERROR',
  'HOST_FRAME_TOO_LARGE',
  'HOST_TOO_MANY_REQUESTS',
] as const satisfies readonly WireErrorCode[];

/** Refusals of the connection itself (the HTTP upgrade), before any method runs. */
export const CONNECT_ERRORS = [
  'HOST_UNAUTHORIZED',
  'HOST_ORIGIN_FORBIDDEN',
  'HOST_AUTH_RATE_LIMITED',
  'HOST_TOO_MANY_CONNECTIONS',
] as const satisfies readonly WireErrorCode[];

/** Reading the corpus (`session.list`, listings). */
const LISTING = ['SESSION_QUERY_ABORTED', 'SESSION_QUERY_PERSISTENCE_FAILED'] as const;

/** One exact observation of one session (every read by id, and the check before a command). */
const READ_ONE = [
  'SESSION_ID_INVALID',
  'SESSION_QUERY_NOT_FOUND',
  'SESSION_QUERY_CORRUPT_SESSION',
  'SESSION_QUERY_SOURCE_CONFLICT',
  ...LISTING,
] as const;

/** A command that appends to one session: who may write it, and what writing it may meet. */
const APPEND = [
  ...READ_ONE,
  'SESSION_READ_ONLY',
  'HOST_CHILD_SESSION_READ_ONLY',
  'SESSION_OWNED_ELSEWHERE',
  'SESSION_EVENT_INVALID',
  'SESSION_WRITE_FAILED',
  'PERSISTENCE_IO',
  'AGENT_PERSISTENCE_FAILED',
  'AGENT_PROMOTION_STALE',
  'AGENT_CANCELLED',
  'AGENT_CLOSED',
] as const;

/** A choice checked against the host's catalogs before anything is appended. */
const CATALOG_CHECK = ['HOST_CATALOG_UNAVAILABLE'] as const;

export const METHOD_ERRORS = {
  'session.list': [...LISTING, 'HOST_LIST_CURSOR_INVALID'],
  'session.search': [
    'HOST_SEARCH_UNAVAILABLE',
    'SEARCH_INVALID_QUERY',
    'SEARCH_STALE_CURSOR',
    'SEARCH_ABORTED',
    'SEARCH_PERSISTENCE_FAILED',
    'SEARCH_INDEX_FAILED',
  ],
  'session.follow': [...READ_ONE, 'AGENT_PROMOTION_STALE', 'AGENT_CANCELLED'],
  'session.unfollow': ['HOST_FOLLOW_NOT_FOUND'],
  'session.listSubscribe': [],
  'session.listUnsubscribe': ['HOST_LIST_SUBSCRIPTION_NOT_FOUND'],
  'session.page': [...READ_ONE, 'SESSION_QUERY_INVALID_QUERY'],
  'session.attachment': [...READ_ONE, 'HOST_ATTACHMENT_NOT_REFERENCED', 'PERSISTENCE_ATTACHMENT_NOT_FOUND'],
  'session.fork': [...READ_ONE, 'SESSION_FORK_CUT_INVALID', 'PERSISTENCE_IO'],
  // A bad `since`/`until`/`timeZone` is `RPC_INVALID_PARAMS`, as every request's params.
  'usage.summary': [...LISTING],
  'subagent.list': [...READ_ONE, 'HOST_SUBAGENTS_UNAVAILABLE', 'SUBAGENT_CONTROL_QUERY_FAILED', 'CANCELLED'],
  'session.create': [
    'HOST_AGENTS_UNAVAILABLE',
    ...CATALOG_CHECK,
    'HOST_MODEL_UNKNOWN',
    'HOST_PRESET_UNKNOWN',
    'AGENT_PERSISTENCE_FAILED',
    'AGENT_MODEL_UNAVAILABLE',
    'AGENT_PRESET_UNAVAILABLE',
    'AGENT_MODEL_FAILED',
    'AGENT_CLOSED',
  ],
  'session.prompt': [
    ...APPEND,
    'HOST_AGENTS_UNAVAILABLE',
    'AGENT_BUSY',
    'AGENT_MODEL_UNAVAILABLE',
    'AGENT_PRESET_UNAVAILABLE',
    'AGENT_MODEL_FAILED',
  ],
  'session.cancel': [
    ...READ_ONE,
    'SESSION_READ_ONLY',
    'HOST_CHILD_SESSION_READ_ONLY',
    'HOST_AGENTS_UNAVAILABLE',
  ],
  'session.rename': [...APPEND],
  'session.selectModel': [...APPEND, ...CATALOG_CHECK, 'HOST_MODEL_UNKNOWN'],
  'session.selectPreset': [...APPEND, ...CATALOG_CHECK, 'HOST_PRESET_UNKNOWN'],
  'catalog.models': [...CATALOG_CHECK],
  'catalog.presets': [...CATALOG_CHECK],
} as const satisfies Readonly<Record<MethodName, readonly WireErrorCode[]>>;

/** The codes `method` may answer, its own and every request's. */
export function errorsOf(method: MethodName): readonly WireErrorCode[] {
  return [...ANY_REQUEST_ERRORS, ...METHOD_ERRORS[method]];
}
