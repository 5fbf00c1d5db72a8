/**
 * Every stable error code of every package, in one table: the string code (owned by the package
 * named), the integer JSON-RPC code it travels with, and one line of meaning. Only `host` maps
 * package errors to these; clients switch on `data.code`. Each package's union of codes is listed
 * here exactly once (`packages/cli/src/error-table.test.ts` checks it against every package's
 * `*_ERROR_CODES`), so the integers are unique.
 *
 * Integers: the `-32xxx` codes are the ones that travelled before the table listed every code and
 * keep their numbers; every other code has a number in its owner's block of a hundred from
 * `-33000` down (`OWNER_BLOCKS`), in the order listed. Most of those never reach a client (a CLI
 * or client code), but a number that is never reused keeps a log line or a test unambiguous.
 */
export interface ErrorEntry {
  readonly rpc: number;
  readonly owner: ErrorOwner;
  readonly meaning: string;
}

export type ErrorOwner =
  | 'json-rpc'
  | 'host'
  | 'session'
  | 'query'
  | 'search'
  | 'persistence'
  | 'projection'
  | 'projection-cache'
  | 'subagent'
  | 'agent'
  | 'coordination'
  | 'postgres'
  | 'runtime'
  | 'import'
  | 'cli'
  | 'client';

/** The first integer of each owner's block for codes added after the `-32xxx` set. */
export const OWNER_BLOCKS: Readonly<Partial<Record<ErrorOwner, number>>> = Object.freeze({
  session: -33000,
  search: -33100,
  persistence: -33200,
  projection: -33300,
  'projection-cache': -33400,
  subagent: -33500,
  agent: -33600,
  postgres: -33700,
  // The coordination part of the PostgreSQL package shares its package's block.
  coordination: -33700,
  host: -33800,
  runtime: -33900,
  import: -34000,
  cli: -34100,
  client: -34200,
});

export type RpcErrorCode = (typeof RPC_ERROR_CODES)[number];

/** The JSON-RPC 2.0 codes (`owner: 'json-rpc'`). */
export const RPC_ERROR_CODES = [
  'RPC_PARSE_ERROR',
  'RPC_INVALID_REQUEST',
  'RPC_METHOD_NOT_FOUND',
  'RPC_INVALID_PARAMS',
  'RPC_INTERNAL_ERROR',
] as const;

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
  HOST_TOKEN_REQUIRED: {
    rpc: -33800,
    owner: 'host',
    meaning: 'The host was asked to bind a non-loopback interface without a token (a start-up refusal).',
  },
  HOST_ORIGIN_INVALID: {
    rpc: -33801,
    owner: 'host',
    meaning: 'An allowed origin given to the host is not an origin (a start-up refusal).',
  },
  HOST_TOO_MANY_CONNECTIONS: {
    rpc: -33802,
    owner: 'host',
    meaning:
      'The host holds as many connections as its limits allow, in all or from this address (HTTP 503, `data.limit`: total or address).',
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
  SESSION_DATA_NOT_JSON: {
    rpc: -33000,
    owner: 'session',
    meaning: 'Event data is not lossless JSON (NaN, -0, undefined, cycles, class instances…).',
  },
  SESSION_HEADER_INVALID: {
    rpc: -33001,
    owner: 'session',
    meaning: 'A header does not match the header schema.',
  },
  SESSION_SEQ_MISMATCH: {
    rpc: -33002,
    owner: 'session',
    meaning: 'Events are not contiguous: expected seq N, got M.',
  },
  SESSION_ALREADY_ATTACHED: {
    rpc: -33003,
    owner: 'session',
    meaning: 'A session with this id is already attached to the store.',
  },
  SESSION_READ_ONLY: {
    rpc: -33004,
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
  SEARCH_STALE_CURSOR: {
    rpc: -32026,
    owner: 'search',
    meaning: 'The search cursor predates an index rebuild; search again.',
  },
  SEARCH_INDEX_FAILED: {
    rpc: -32027,
    owner: 'search',
    meaning: 'The search index could not be opened, read or written.',
  },
  SEARCH_INVALID_QUERY: {
    rpc: -33100,
    owner: 'search',
    meaning: 'The search is empty, too long, or an option (limit, cursor) is malformed.',
  },
  SEARCH_ABORTED: { rpc: -33101, owner: 'search', meaning: 'The search, sync or rebuild was cancelled.' },
  SEARCH_PERSISTENCE_FAILED: {
    rpc: -33102,
    owner: 'search',
    meaning: 'Listing or reading the stored sessions to index failed.',
  },
  PERSISTENCE_SEQ_CONFLICT: {
    rpc: -32030,
    owner: 'persistence',
    meaning: 'Another writer appended to the session first.',
  },
  PERSISTENCE_IO: { rpc: -32031, owner: 'persistence', meaning: 'Storage failed while writing.' },
  PERSISTENCE_NOT_FOUND: { rpc: -33200, owner: 'persistence', meaning: 'No stored session has this id.' },
  PERSISTENCE_EXISTS: { rpc: -33201, owner: 'persistence', meaning: 'A stored session already has this id.' },
  PERSISTENCE_CORRUPT: {
    rpc: -33202,
    owner: 'persistence',
    meaning: 'Damage before later valid data, a bad header, or a seq gap in a stored session.',
  },
  PERSISTENCE_FORMAT_UNSUPPORTED: {
    rpc: -33203,
    owner: 'persistence',
    meaning: "Data written by a newer format version, or a database that is not Strand's.",
  },
  PERSISTENCE_ABORTED: { rpc: -33204, owner: 'persistence', meaning: 'The read was cancelled.' },
  PERSISTENCE_ID_UNSTORABLE: {
    rpc: -33205,
    owner: 'persistence',
    meaning: 'The session id cannot be stored (its file name would be too long).',
  },
  PERSISTENCE_ATTACHMENT_NOT_FOUND: {
    rpc: -33206,
    owner: 'persistence',
    meaning: 'No attachment with that ref is stored for the session.',
  },
  PERSISTENCE_RESERVED: {
    rpc: -33207,
    owner: 'persistence',
    meaning: 'A prepared session is already reserved for publication.',
  },
  PERSISTENCE_CLOSED: { rpc: -33208, owner: 'persistence', meaning: 'The store was closed.' },
  PROJECTION_FAILED: {
    rpc: -33300,
    owner: 'projection',
    meaning: 'A projection unit threw against its contract; the session reads as corrupt.',
  },
  PROJECTION_KEY_CONFLICT: {
    rpc: -33301,
    owner: 'projection',
    meaning: 'A key is already registered with another unit or stateVersion.',
  },
  PROJECTION_UNIT_INVALID: {
    rpc: -33302,
    owner: 'projection',
    meaning: 'A unit key is empty or its stateVersion is not a positive integer.',
  },
  PROJECTION_NOT_TRACKED: {
    rpc: -33303,
    owner: 'projection',
    meaning: 'The registry does not track that session.',
  },
  PROJECTION_EVENTS_NOT_CONTIGUOUS: {
    rpc: -33304,
    owner: 'projection',
    meaning: 'Events handed to a cold fold are not contiguous: expected seq N, got M.',
  },
  PROJECTION_LISTENER_FAILED: {
    rpc: -33305,
    owner: 'projection',
    meaning: 'A projection listener threw; reported, never thrown to the appender.',
  },
  PROJECTION_CACHE_OPEN_FAILED: {
    rpc: -33400,
    owner: 'projection-cache',
    meaning: 'The projection cache database could not be opened or its schema created.',
  },
  PROJECTION_CACHE_SCHEMA_UNSUPPORTED: {
    rpc: -33401,
    owner: 'projection-cache',
    meaning: 'The projection cache was written by a newer schema.',
  },
  PROJECTION_CACHE_WRITE_FAILED: {
    rpc: -33402,
    owner: 'projection-cache',
    meaning: 'A projection cache row write or forget failed (contained and logged).',
  },
  PROJECTION_CACHE_CLOSED: {
    rpc: -33403,
    owner: 'projection-cache',
    meaning: 'The projection cache was closed.',
  },
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
  SUBAGENT_CONTROL_QUERY_FAILED: {
    rpc: -33500,
    owner: 'subagent',
    meaning: 'The session corpus could not be listed for a subagent listing.',
  },
  SUBAGENT_CONTROL_INVALID_ARGUMENTS: {
    rpc: -33501,
    owner: 'subagent',
    meaning: 'A subagent tool was called with arguments outside its schema.',
  },
  SUBAGENT_CONTROL_DEPTH_LIMIT: {
    rpc: -33502,
    owner: 'subagent',
    meaning: 'A spawn would exceed the delegation depth limit.',
  },
  SUBAGENT_CONTROL_LABEL_REQUIRED: {
    rpc: -33503,
    owner: 'subagent',
    meaning: 'A continuable child was requested without a label.',
  },
  SUBAGENT_CONTROL_FORK_EMPTY: {
    rpc: -33504,
    owner: 'subagent',
    meaning: 'A forked spawn was requested but the parent has no closed turn.',
  },
  SUBAGENT_CONTROL_NOT_FOUND: { rpc: -33505, owner: 'subagent', meaning: 'No session has that child id.' },
  SUBAGENT_CONTROL_NOT_PARENT: {
    rpc: -33506,
    owner: 'subagent',
    meaning: "The caller is not the child's direct parent.",
  },
  SUBAGENT_CONTROL_NOT_CONTINUABLE: {
    rpc: -33507,
    owner: 'subagent',
    meaning: 'The child is one-shot and cannot be continued.',
  },
  SUBAGENT_CONTROL_DESCRIPTOR_CORRUPT: {
    rpc: -33508,
    owner: 'subagent',
    meaning: "The child's identity or descriptor is missing or malformed.",
  },
  SUBAGENT_CONTROL_DESCRIPTOR_UNSUPPORTED: {
    rpc: -33509,
    owner: 'subagent',
    meaning: "The child's descriptor has a version this build does not read.",
  },
  SUBAGENT_CONTROL_READ_FAILED: {
    rpc: -33510,
    owner: 'subagent',
    meaning: 'Reading the child failed (corrupt log, storage failure).',
  },
  SUBAGENT_DESCRIPTOR_INVALID: {
    rpc: -33511,
    owner: 'subagent',
    meaning: 'The descriptor writer refused a descriptor the parser would not accept.',
  },
  AGENT_BUSY: { rpc: -32050, owner: 'agent', meaning: 'The session already runs a turn.' },
  AGENT_FAILED: {
    rpc: -32051,
    owner: 'host',
    meaning: 'The host could not hand the command to an agent (it runs none).',
  },
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
  AGENT_CHILD_SESSION: {
    rpc: -33600,
    owner: 'agent',
    meaning: 'A prompt, promotion or activation of a subagent child: only its parent drives it.',
  },
  AGENT_DETACHED: {
    rpc: -33601,
    owner: 'agent',
    meaning: 'The agent has detached (its session went cold); activate it again.',
  },
  AGENT_PROMOTION_UNPREPARED: {
    rpc: -33602,
    owner: 'agent',
    meaning: '`promote` got an observation that is not a retained cold cut.',
  },
  AGENT_PROMOTION_STALE: {
    rpc: -33603,
    owner: 'agent',
    meaning: 'The stored log changed after the observation handed to `promote` was read.',
  },
  AGENT_SESSION_LIVE_ELSEWHERE: {
    rpc: -33604,
    owner: 'agent',
    meaning: 'The session is live but attached by another controller.',
  },
  AGENT_OWNERSHIP_LOST: {
    rpc: -33605,
    owner: 'agent',
    meaning: 'This host lost the session lease; the agent stopped.',
  },
  AGENT_SESSION_NOT_FOUND: {
    rpc: -33606,
    owner: 'agent',
    meaning: '`activate` of an id that is neither live nor stored.',
  },
  AGENT_PERSISTENCE_FAILED: {
    rpc: -33607,
    owner: 'agent',
    meaning: 'Creating, reading or publishing a session failed below the agent.',
  },
  AGENT_MODEL_FAILED: {
    rpc: -33608,
    owner: 'agent',
    meaning: 'A model request failed; the turn ends `error`.',
  },
  AGENT_MODEL_INTERRUPTED: {
    rpc: -33609,
    owner: 'agent',
    meaning: 'A model stream broke off; the turn ends `interrupted`.',
  },
  AGENT_MODEL_NOT_CONFIGURED: {
    rpc: -33610,
    owner: 'agent',
    meaning: "The model's API key variable is unset; the turn ends `error`.",
  },
  AGENT_STEP_LIMIT: { rpc: -33611, owner: 'agent', meaning: 'A turn used more model steps than `maxSteps`.' },
  AGENT_TOOL_UNKNOWN: {
    rpc: -33612,
    owner: 'agent',
    meaning: 'The model called a tool that is not registered.',
  },
  AGENT_TOOL_NOT_ALLOWED: {
    rpc: -33613,
    owner: 'agent',
    meaning: "The model called a tool its session's preset does not allow.",
  },
  AGENT_TOOL_ARGUMENTS_INVALID: {
    rpc: -33614,
    owner: 'agent',
    meaning: "A tool's arguments do not match its schema.",
  },
  AGENT_TOOL_FAILED: {
    rpc: -33615,
    owner: 'agent',
    meaning: 'A tool threw an error without a stable code of its own.',
  },
  AGENT_TOOL_NOT_RUN: {
    rpc: -33616,
    owner: 'agent',
    meaning: 'A tool call was not run because the turn ended first.',
  },
  AGENT_CANCELLED: { rpc: -33617, owner: 'agent', meaning: 'The turn (or a tool) was cancelled.' },
  AGENT_CONFIG_INVALID: {
    rpc: -33618,
    owner: 'agent',
    meaning: 'Invalid agent configuration (base URL, limit, duplicate tool).',
  },
  AGENT_CLOSED: { rpc: -33619, owner: 'agent', meaning: 'The agent controller was closed.' },
  COORDINATION_CLOSED: {
    rpc: -33700,
    owner: 'coordination',
    meaning: 'The lease table or append feed was closed.',
  },
  COORDINATION_CONFIG_INVALID: {
    rpc: -33701,
    owner: 'coordination',
    meaning: 'Invalid lease or feed options (ttl, renewal interval, owner).',
  },
  POSTGRES_PERSISTENCE_CONFIG_INVALID: {
    rpc: -33702,
    owner: 'postgres',
    meaning: 'A bad option of the PostgreSQL store (e.g. poolSize).',
  },
  POSTGRES_SCHEMA_NEWER: {
    rpc: -33703,
    owner: 'postgres',
    meaning: "The database's schema is newer than this Strand understands.",
  },
  HOST_RUNTIME_CONFIG_INVALID: {
    rpc: -33900,
    owner: 'runtime',
    meaning: 'The runtime options are invalid (a start-up refusal).',
  },
  HOST_PRESETS_INVALID: { rpc: -33901, owner: 'runtime', meaning: 'The presets file is malformed.' },
  HOST_MODELS_INVALID: { rpc: -33902, owner: 'runtime', meaning: 'The models file is missing or malformed.' },
  IMPORT_SOURCE_NOT_FOUND: {
    rpc: -34000,
    owner: 'import',
    meaning: 'The import source folder does not exist.',
  },
  IMPORT_HARNESS_UNKNOWN: {
    rpc: -34001,
    owner: 'import',
    meaning: 'The harness name is not claude-code, codex or gemini.',
  },
  IMPORT_LEDGER_WRITE_FAILED: {
    rpc: -34002,
    owner: 'import',
    meaning: 'The import ledger could not be written.',
  },
  CLI_MCP_ARGUMENTS_INVALID: {
    rpc: -34100,
    owner: 'cli',
    meaning: 'MCP tool arguments that do not fit together (a seq range backwards).',
  },
  CLI_MCP_DATA_FOLDER_MISSING: { rpc: -34101, owner: 'cli', meaning: '`--data` names no folder.' },
  CLI_DATA_FOLDER_LOCKED: {
    rpc: -34102,
    owner: 'cli',
    meaning: 'Another live process writes this data folder.',
  },
  CLI_DATA_FOLDER_LOCK_FAILED: {
    rpc: -34103,
    owner: 'cli',
    meaning: 'The data folder lock could not be taken (permissions, no locks).',
  },
  CLI_HOLDING_HOST_UNAUTHORIZED: {
    rpc: -34104,
    owner: 'cli',
    meaning: "The host holding the folder refused the read command's token.",
  },
  CLI_HOLDING_HOST_UNREACHABLE: {
    rpc: -34105,
    owner: 'cli',
    meaning: 'The host holding the folder does not accept connections.',
  },
  CLI_HOST_UNREACHABLE: { rpc: -34106, owner: 'cli', meaning: 'No host answers at `--url`.' },
  CLI_HOST_UNAUTHORIZED: { rpc: -34107, owner: 'cli', meaning: 'The host at `--url` refused the token.' },
  CLI_ACP_SESSION_NOT_OPEN: {
    rpc: -34108,
    owner: 'cli',
    meaning: 'An ACP call on a session this connection never created or loaded.',
  },
  CLI_ACP_PROMPT_RUNNING: {
    rpc: -34109,
    owner: 'cli',
    meaning: 'An ACP prompt while one runs on the session.',
  },
  CLI_ACP_PROMPT_EMPTY: { rpc: -34110, owner: 'cli', meaning: 'An ACP prompt with no text Strand can send.' },
  CLI_ACP_CONFIG_INVALID: {
    rpc: -34111,
    owner: 'cli',
    meaning: 'An ACP config option or value the host catalog does not offer.',
  },
  CLI_ACP_TURN_FAILED: {
    rpc: -34112,
    owner: 'cli',
    meaning: 'The ACP turn ended in error or was interrupted.',
  },
  CLI_ACP_HOST_LOST: {
    rpc: -34113,
    owner: 'cli',
    meaning: 'The host connection was lost while an ACP turn ran.',
  },
  CLI_ACP_FAILED: { rpc: -34114, owner: 'cli', meaning: 'An ACP failure that carried no stable code.' },
  CLIENT_DISCONNECTED: {
    rpc: -34200,
    owner: 'client',
    meaning: 'The socket closed while the call was in flight.',
  },
  CLIENT_CLOSED: { rpc: -34201, owner: 'client', meaning: 'The connection was closed by its owner.' },
  CLIENT_SNAPSHOT_INVALID: { rpc: -34202, owner: 'client', meaning: 'A follow snapshot failed validation.' },
  CLIENT_PAGE_INVALID: {
    rpc: -34203,
    owner: 'client',
    meaning: 'A `session.page` result did not join the window asked for.',
  },
  CLIENT_FOLLOW_ACTIVE: {
    rpc: -34204,
    owner: 'client',
    meaning: '`follow()` on a follower that already follows a session.',
  },
  CLIENT_NOT_FOLLOWING: {
    rpc: -34205,
    owner: 'client',
    meaning: 'An operation that needs a followed session on an idle follower.',
  },
  CLIENT_PROJECTION_INVALID: {
    rpc: -34206,
    owner: 'client',
    meaning: 'A projection value does not have the shape its client view promises.',
  },
  CLIENT_RESULT_INVALID: {
    rpc: -34207,
    owner: 'client',
    meaning: 'A method result does not have the shape its protocol schema describes.',
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
