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
  'HOST_SHARE_EXPIRED',
  'HOST_SHARE_REVOKED',
  'HOST_SHARE_STORE_FAILED',
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

/** A share connection's refusal of a method (or of `interactive`, or of subagents not granted). */
const SHARE_REFUSED = 'HOST_SHARE_READ_ONLY';

/** Making, listing and revoking share grants: the host must be able to, and must need a token. */
const SHARE_MANAGEMENT = [
  'HOST_SHARE_UNAVAILABLE',
  'HOST_SHARE_NEEDS_TOKEN',
  SHARE_REFUSED,
  'HOST_SHARE_STORE_FAILED',
] as const;

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
  'session.follow': [SHARE_REFUSED, ...READ_ONE, 'AGENT_PROMOTION_STALE', 'AGENT_CANCELLED'],
  'session.unfollow': ['HOST_FOLLOW_NOT_FOUND'],
  'session.listSubscribe': [SHARE_REFUSED],
  'session.listUnsubscribe': [SHARE_REFUSED, 'HOST_LIST_SUBSCRIPTION_NOT_FOUND'],
  'session.page': [...READ_ONE, 'SESSION_QUERY_INVALID_QUERY'],
  'session.attachment': [...READ_ONE, 'HOST_ATTACHMENT_NOT_REFERENCED', 'PERSISTENCE_ATTACHMENT_NOT_FOUND'],
  'session.export': [...READ_ONE, 'HOST_EXPORT_UNAVAILABLE'],
  'session.exportTo': [
    SHARE_REFUSED,
    ...READ_ONE,
    'HOST_EXPORT_UNAVAILABLE',
    'HOST_EXPORT_NOT_CONTINUABLE',
    'HOST_EXPORT_TARGET_NOT_OURS',
    'HOST_EXPORT_WRITE_FAILED',
  ],
  'session.fork': [SHARE_REFUSED, ...READ_ONE, 'SESSION_FORK_CUT_INVALID', 'PERSISTENCE_IO'],
  // A bad `since`/`until`/`timeZone` is `RPC_INVALID_PARAMS`, as every request's params.
  'usage.summary': [SHARE_REFUSED, ...LISTING],
  'subagent.list': [
    SHARE_REFUSED,
    ...READ_ONE,
    'HOST_SUBAGENTS_UNAVAILABLE',
    'SUBAGENT_CONTROL_QUERY_FAILED',
    'CANCELLED',
  ],
  'session.create': [
    SHARE_REFUSED,
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
    SHARE_REFUSED,
    ...APPEND,
    'HOST_AGENTS_UNAVAILABLE',
    'AGENT_BUSY',
    'AGENT_MODEL_UNAVAILABLE',
    'AGENT_PRESET_UNAVAILABLE',
    'AGENT_MODEL_FAILED',
  ],
  'session.cancel': [
    SHARE_REFUSED,
    ...READ_ONE,
    'SESSION_READ_ONLY',
    'HOST_CHILD_SESSION_READ_ONLY',
    'HOST_AGENTS_UNAVAILABLE',
  ],
  'session.rename': [SHARE_REFUSED, ...APPEND],
  'session.selectModel': [SHARE_REFUSED, ...APPEND, ...CATALOG_CHECK, 'HOST_MODEL_UNKNOWN'],
  'session.selectPreset': [SHARE_REFUSED, ...APPEND, ...CATALOG_CHECK, 'HOST_PRESET_UNKNOWN'],
  'catalog.models': [...CATALOG_CHECK],
  'catalog.presets': [...CATALOG_CHECK],
  'share.create': [...READ_ONE, ...SHARE_MANAGEMENT],
  'share.list': [...SHARE_MANAGEMENT],
  'share.revoke': [...SHARE_MANAGEMENT, 'HOST_SHARE_NOT_FOUND'],
} as const satisfies Readonly<Record<MethodName, readonly WireErrorCode[]>>;

/** The codes `method` may answer, its own and every request's. */
export function errorsOf(method: MethodName): readonly WireErrorCode[] {
  return [...ANY_REQUEST_ERRORS, ...METHOD_ERRORS[method]];
}
