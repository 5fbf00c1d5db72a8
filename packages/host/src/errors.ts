import {
  ERROR_TABLE,
  isWireErrorCode,
  type RpcErrorCode,
  type RpcErrorObject,
  type WireErrorCode,
} from '@strand/protocol';
import { HOST_ERRORS, StrandError } from '@strand/session/errors';

/** The host's own codes (owner `host` of the protocol error table). */
export const HOST_ERROR_CODES = HOST_ERRORS.codes;
export type HostErrorCode = (typeof HOST_ERROR_CODES)[number];

/**
 * The host's own refusals, with its own codes — and, as the JSON-RPC server, the protocol's
 * `RPC_*` ones (a param the schema cannot check, e.g. an unknown time zone). What this host was
 * not given (agents, a search index, subagents, catalogs) is never reported under another
 * package's code. `data` are facts a client may show (the wire error's `data`); a refusal that is
 * another package's to name is thrown as that package's error.
 */
export class HostError extends StrandError<HostErrorCode | RpcErrorCode> {
  override readonly name = 'HostError';
  constructor(
    code: HostErrorCode | RpcErrorCode,
    message: string,
    readonly data: Record<string, unknown> = {},
  ) {
    super(code, message);
  }

  protected override jsonFields(): { data: Record<string, unknown> } {
    return { data: this.data };
  }
}

/**
 * Maps any package error to a wire error. Every package error class carries a stable string
 * `code`, and every package's codes are in the protocol table, which gives its integer. Anything
 * else (a bug, a driver's own error) becomes RPC_INTERNAL_ERROR with no internals leaked.
 */
export function toWireError(error: unknown): RpcErrorObject {
  const code = (error as { code?: unknown } | null)?.code;
  if (isWireErrorCode(code)) {
    // Host errors' data, and a package error's `details` (e.g. who owns a session), are facts a
    // client may show; every package keeps internals out of `details`.
    const extra = error instanceof HostError ? error.data : detailsOf(error);
    return { code: ERROR_TABLE[code].rpc, message: (error as Error).message, data: { ...extra, code } };
  }
  return {
    code: ERROR_TABLE.RPC_INTERNAL_ERROR.rpc,
    message: 'internal error',
    data: { code: 'RPC_INTERNAL_ERROR' },
  };
}

export function wireError(
  code: WireErrorCode,
  message: string,
  data: Record<string, unknown> = {},
): RpcErrorObject {
  return { code: ERROR_TABLE[code].rpc, message, data: { ...data, code } };
}

function detailsOf(error: unknown): Record<string, unknown> {
  const details = (error as { details?: unknown }).details;
  return typeof details === 'object' && details !== null && !Array.isArray(details)
    ? (details as Record<string, unknown>)
    : {};
}
