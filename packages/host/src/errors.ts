import { ERROR_TABLE, isWireErrorCode, type RpcErrorObject, type WireErrorCode } from '@strand/protocol';

/** The host's own failures; `code` is a wire code from the protocol error table. */
export class HostError extends Error {
  override readonly name = 'HostError';
  constructor(
    readonly code: WireErrorCode,
    message: string,
    readonly data: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/**
 * Maps any package error to a wire error. Every package error class carries a stable string
 * `code`; the protocol table gives its integer. Unknown failures become RPC_INTERNAL_ERROR with
 * no internals leaked.
 */
export function toWireError(error: unknown): RpcErrorObject {
  const code = (error as { code?: unknown } | null)?.code;
  if (isWireErrorCode(code)) {
    // Host errors' data, and a package error's `details` (e.g. who owns a session), are facts a
    // client may show; every package keeps internals out of `details`.
    const extra = error instanceof HostError ? error.data : detailsOf(error);
    return { code: ERROR_TABLE[code].rpc, message: (error as Error).message, data: { ...extra, code } };
  }
  if (typeof code === 'string' && code.startsWith('SUBAGENT_')) {
    return { code: -32049, message: (error as Error).message, data: { code } };
  }
  if (typeof code === 'string' && code.startsWith('AGENT_')) {
    return { code: ERROR_TABLE.AGENT_FAILED.rpc, message: (error as Error).message, data: { code } };
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
