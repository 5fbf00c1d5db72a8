/**
 * Every error a client can see, in one table: the stable string code (owned by the package named),
 * the integer JSON-RPC code it travels with, and one line of meaning. Only `host` maps package
 * errors to these; clients switch on `data.code`.
 */
export interface ErrorEntry {
  readonly rpc: number;
  readonly owner:
    | 'json-rpc'
    | 'host'
    | 'session'
    | 'query'
    | 'persistence'
    | 'subagent'
    | 'agent'
    | 'coordination';
  readonly meaning: string;
}

export const ERROR_TABLE = {
  RPC_PARSE_ERROR: { rpc: -32700, owner: 'json-rpc', meaning: 'The frame is not valid JSON.' },
  RPC_INVALID_REQUEST: {
    rpc: -32600,
    owner: 'json-rpc',
    meaning: 'The frame is not a JSON-RPC 2.0 request.',
  },
  RPC_METHOD_NOT_FOUND: { rpc: -32601, owner: 'json-rpc', meaning: 'No such method.' },
  RPC_INVALID_PARAMS: {
    rpc: -32602,
    owner: 'json-rpc',
    meaning: 'The params do not match the method schema.',
  },
  RPC_INTERNAL_ERROR: {
    rpc: -32603,
    owner: 'json-rpc',
    meaning: 'The host failed unexpectedly; it keeps serving.',
  },
  HOST_FRAME_TOO_LARGE: {
    rpc: -32001,
    owner: 'host',
    meaning: 'The frame exceeds the host frame size limit.',
  },
  HOST_TOO_MANY_REQUESTS: {
    rpc: -32002,
    owner: 'host',
    meaning: 'Too many requests in flight on this connection.',
  },
  HOST_UNAUTHORIZED: {
    rpc: -32003,
    owner: 'host',
    meaning: 'A token is required (non-loopback host) and was missing or wrong.',
  },
  HOST_FOLLOW_NOT_FOUND: {
    rpc: -32004,
    owner: 'host',
    meaning: 'No follow with that id on this connection.',
  },
  HOST_CHILD_SESSION_READ_ONLY: {
    rpc: -32005,
    owner: 'host',
    meaning: 'Commands that drive an agent are refused on a subagent child; its parent drives it.',
  },
  HOST_ATTACHMENT_NOT_REFERENCED: {
    rpc: -32006,
    owner: 'host',
    meaning: 'The session log does not reference that attachment.',
  },
  HOST_CATALOG_UNAVAILABLE: { rpc: -32007, owner: 'host', meaning: 'A catalog could not be loaded.' },
  HOST_MODEL_UNKNOWN: {
    rpc: -32008,
    owner: 'host',
    meaning: 'The model catalog does not list that provider and model; nothing was appended.',
  },
  HOST_PRESET_UNKNOWN: {
    rpc: -32009,
    owner: 'host',
    meaning: 'The preset catalog does not list that preset; nothing was appended.',
  },
  HOST_ORIGIN_FORBIDDEN: {
    rpc: -32070,
    owner: 'host',
    meaning:
      'The upgrade came from a web page of another origin, or named a Host that is not this loopback host (HTTP 403).',
  },
  HOST_AUTH_RATE_LIMITED: {
    rpc: -32071,
    owner: 'host',
    meaning: 'Too many failed token attempts from this address; retry after `data.retryAfterMs` (HTTP 429).',
  },
  SESSION_ID_INVALID: {
    rpc: -32010,
    owner: 'session',
    meaning: 'The session id is malformed (empty, too long, control characters).',
  },
  SESSION_EVENT_INVALID: {
    rpc: -32011,
    owner: 'session',
    meaning: 'A command would append an invalid event.',
  },
  SESSION_FORK_CUT_INVALID: { rpc: -32012, owner: 'session', meaning: 'The fork point is outside the log.' },
  SESSION_WRITE_FAILED: {
    rpc: -32013,
    owner: 'session',
    meaning:
      'A durable write of the session failed, so it stopped; nothing past its durable cut was shown. Fix the cause: the next command reopens it from disk.',
  },
  SESSION_READ_ONLY: {
    rpc: -32014,
    owner: 'session',
    meaning:
      'The session was imported from another harness (its header has a `source`), which owns it: reads, follows and forks are allowed, commands that append are refused.',
  },
  SESSION_QUERY_NOT_FOUND: {
    rpc: -32020,
    owner: 'query',
    meaning: 'Neither a live nor a persisted session has this id.',
  },
  SESSION_QUERY_CORRUPT_SESSION: {
    rpc: -32021,
    owner: 'query',
    meaning: 'The stored session is damaged or a projection failed on it.',
  },
  SESSION_QUERY_SOURCE_CONFLICT: {
    rpc: -32022,
    owner: 'query',
    meaning: 'The session kept changing between live and cold while being read.',
  },
  SESSION_QUERY_ABORTED: { rpc: -32023, owner: 'query', meaning: 'The read was cancelled.' },
  SESSION_QUERY_PERSISTENCE_FAILED: { rpc: -32024, owner: 'query', meaning: 'Storage failed while reading.' },
  SESSION_QUERY_INVALID_QUERY: {
    rpc: -32025,
    owner: 'query',
    meaning: 'The query or window is invalid (e.g. an empty search).',
  },
  SESSION_QUERY_STALE_CURSOR: {
    rpc: -32026,
    owner: 'query',
    meaning: 'The search cursor predates an index rebuild; search again.',
  },
  SESSION_QUERY_SEARCH_INDEX_FAILED: {
    rpc: -32027,
    owner: 'query',
    meaning: 'The search index could not be opened or read.',
  },
  PERSISTENCE_SEQ_CONFLICT: {
    rpc: -32030,
    owner: 'persistence',
    meaning: 'Another writer appended to the session first.',
  },
  PERSISTENCE_IO: { rpc: -32031, owner: 'persistence', meaning: 'Storage failed while writing.' },
  SUBAGENT_CONTROL_PROJECTIONS_UNAVAILABLE: {
    rpc: -32040,
    owner: 'subagent',
    meaning: 'The host has no projection registry.',
  },
  SUBAGENT_CONTROL_SESSION_STORE_UNAVAILABLE: {
    rpc: -32041,
    owner: 'subagent',
    meaning: 'The host has no live session store.',
  },
  SUBAGENT_CONTROL_QUERY_UNAVAILABLE: {
    rpc: -32042,
    owner: 'subagent',
    meaning: 'The host has no session query service.',
  },
  CANCELLED: { rpc: -32043, owner: 'subagent', meaning: 'The subagent operation was cancelled.' },
  AGENT_BUSY: { rpc: -32050, owner: 'agent', meaning: 'The session already runs a turn.' },
  AGENT_FAILED: { rpc: -32051, owner: 'agent', meaning: 'The agent could not run the command.' },
  AGENT_MODEL_UNAVAILABLE: {
    rpc: -32052,
    owner: 'agent',
    meaning:
      "The session's model is not configured on this host (config changed, imported session); select another.",
  },
  AGENT_PRESET_UNAVAILABLE: {
    rpc: -32053,
    owner: 'agent',
    meaning: "The session's preset is not configured on this host; select another.",
  },
  SESSION_OWNED_ELSEWHERE: {
    rpc: -32060,
    owner: 'coordination',
    meaning: 'Another host holds the session lease (runs its agent); `data` names the owner and expiry.',
  },
} as const satisfies Record<string, ErrorEntry>;

export type WireErrorCode = keyof typeof ERROR_TABLE;

export function isWireErrorCode(code: unknown): code is WireErrorCode {
  return typeof code === 'string' && Object.hasOwn(ERROR_TABLE, code);
}

/** The error a client call rejects with: the wire error, typed. */
export class StrandRpcError extends Error {
  override readonly name = 'StrandRpcError';
  constructor(
    readonly code: string,
    readonly rpcCode: number,
    message: string,
    readonly data: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
  }
}
