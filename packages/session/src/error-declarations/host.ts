import { defineErrors } from '../define-errors.js';

/** The host's own codes: refusals at the edge (frames, tokens, origins) and of what it does not offer. */
export const HOST_ERRORS = defineErrors('host', {
  HOST_FRAME_TOO_LARGE: { meaning: 'The frame exceeds the host frame size limit.', number: -32001 },
  HOST_TOO_MANY_REQUESTS: { meaning: 'Too many requests in flight on this connection.', number: -32002 },
  HOST_UNAUTHORIZED: {
    meaning: 'A token is required (non-loopback host) and was missing or wrong.',
    number: -32003,
  },
  HOST_FOLLOW_NOT_FOUND: { meaning: 'No follow with that id on this connection.', number: -32004 },
  HOST_CHILD_SESSION_READ_ONLY: {
    meaning: 'Commands that drive an agent are refused on a subagent child; its parent drives it.',
    number: -32005,
  },
  HOST_ATTACHMENT_NOT_REFERENCED: {
    meaning: 'The session log does not reference that attachment.',
    number: -32006,
  },
  HOST_CATALOG_UNAVAILABLE: { meaning: 'A catalog could not be loaded.', number: -32007 },
  HOST_MODEL_UNKNOWN: {
    meaning: 'The model catalog does not list that provider and model; nothing was appended.',
    number: -32008,
  },
  HOST_PRESET_UNKNOWN: {
    meaning: 'The preset catalog does not list that preset; nothing was appended.',
    number: -32009,
  },
  HOST_ORIGIN_FORBIDDEN: {
    meaning:
      'The upgrade came from a web page of another origin, or named a Host that is not this loopback host (HTTP 403).',
    number: -32070,
  },
  HOST_AUTH_RATE_LIMITED: {
    meaning: 'Too many failed token attempts from this address; retry after `data.retryAfterMs` (HTTP 429).',
    number: -32071,
  },
  /** Commands that need an agent (prompt, cancel, create) on a host that runs none. */
  HOST_AGENTS_UNAVAILABLE: {
    meaning: 'The host runs no agents, so it could not hand the command to one.',
    // A rename of the same refusal keeps its integer: a client switching on -32051 still matches.
    number: -32051,
    was: 'AGENT_FAILED',
  },
  /** `HostConfigError`: a non-loopback bind without a token. */
  HOST_TOKEN_REQUIRED: {
    meaning: 'The host was asked to bind a non-loopback interface without a token (a start-up refusal).',
  },
  /** `HostConfigError`: an allowed origin that is not an origin. */
  HOST_ORIGIN_INVALID: {
    meaning: 'An allowed origin given to the host is not an origin (a start-up refusal).',
  },
  /** A TCP connection past `maxConnections` or `maxConnectionsPerAddress` (HTTP 503, then closed). */
  HOST_TOO_MANY_CONNECTIONS: {
    meaning:
      'The host holds as many connections as its limits allow, in all or from this address (HTTP 503, `data.limit`: total or address).',
  },
  /** `session.search` on a host that was given no search index. */
  HOST_SEARCH_UNAVAILABLE: { meaning: 'The host has no search index, so it cannot search.' },
  /** `subagent.list` on a host that was given no subagent catalog. */
  HOST_SUBAGENTS_UNAVAILABLE: { meaning: 'The host has no subagent catalog, so it cannot list children.' },
  /** `session.list` given a cursor it did not issue under this filter. */
  HOST_LIST_CURSOR_INVALID: {
    meaning:
      'The `session.list` cursor was issued under another filter, or is not one `session.list` issued (altered or malformed); list again from the first page.',
  },
  /** `session.listUnsubscribe` naming no list subscription of this connection. */
  HOST_LIST_SUBSCRIPTION_NOT_FOUND: { meaning: 'No list subscription with that id on this connection.' },
  /** A share connection called a method it may not (a command, a fork, usage, grants), `interactive`, or subagents not granted. */
  HOST_SHARE_READ_ONLY: {
    meaning:
      'The connection presents a share token: it may only read the shared session (and its subagents when granted), so this is refused.',
  },
  /** At the upgrade and in `/auth`: the share token's grant has expired. */
  HOST_SHARE_EXPIRED: { meaning: 'The share link has expired (HTTP 401 at connect).' },
  /** At the upgrade and in `/auth`: the share token's grant was revoked. */
  HOST_SHARE_REVOKED: { meaning: 'The share link was revoked (HTTP 401 at connect).' },
  /** `share.create` on a host that requires no token: a link would grant nothing anyone lacks. */
  HOST_SHARE_NEEDS_TOKEN: {
    meaning:
      'The host requires no token, so anyone who can reach it can already read everything; serve with `--require-token` or off loopback.',
  },
  /** `share.*` on a host that was given no grant store. */
  HOST_SHARE_UNAVAILABLE: { meaning: 'The host has no share grant store, so it cannot share.' },
  /** `share.revoke` naming neither a grant id nor a share token the host knows. */
  HOST_SHARE_NOT_FOUND: { meaning: 'No share grant has that id or token.' },
  /** `session.export` on a host that was given no exporter. */
  HOST_EXPORT_UNAVAILABLE: { meaning: 'The host has no exporter, so it cannot export sessions.' },
  /**
   * `share.*`, the upgrade (HTTP 503) and `/auth` (`unavailable`): the grant store failed (its
   * database unreachable, its file unwritable). A failed write may or may not have been kept.
   */
  HOST_SHARE_STORE_FAILED: {
    meaning:
      'The share grants could not be read or written (their database or file failed); nothing is assumed, try again.',
  },
  /** `session.exportTo` of a session no harness could resume: no working folder, or no conversation yet. */
  HOST_EXPORT_NOT_CONTINUABLE: {
    meaning:
      "The session cannot be written as that harness's transcript (no working folder, or no conversation yet).",
  },
  /** `session.exportTo` onto a file the harness has continued, or that Strand did not write. */
  HOST_EXPORT_TARGET_NOT_OURS: {
    meaning: "The transcript file on the host is not Strand's last export of the session: not overwritten.",
  },
  /** `session.exportTo` whose file could not be written (a read-only or full home): nothing half-written. */
  HOST_EXPORT_WRITE_FAILED: {
    meaning:
      "The host could not write the transcript into the harness's folder; nothing was left half-written.",
  },
});
