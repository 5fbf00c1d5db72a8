import { ERROR_TABLE, RENAMED_ERROR_CODES, StrandRpcError, type RpcId } from '@strand/protocol';
import { isRecord } from '@strand/session';

/** One frame from the host, classified. Anything that is not JSON-RPC 2.0 is `invalid`, never thrown. */
export type IncomingMessage =
  | { readonly kind: 'result'; readonly id: RpcId; readonly result: unknown }
  | { readonly kind: 'error'; readonly id: RpcId | null; readonly error: StrandRpcError }
  | { readonly kind: 'notification'; readonly method: string; readonly params: unknown }
  | { readonly kind: 'invalid'; readonly reason: string };

function isId(value: unknown): value is RpcId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

const CODE_BY_RPC = new Map<number, string>(
  Object.entries(ERROR_TABLE).map(([code, entry]) => [entry.rpc, code]),
);

/**
 * The wire error as a `StrandRpcError`: `code` is `data.code` (the owning package's stable string);
 * when a host omits it, the integer's entry in `ERROR_TABLE`, else `RPC_INTERNAL_ERROR`. A code an
 * older host still sends under its previous name reads as its current name (`currentCodeName`).
 */
export function toRpcError(error: unknown): StrandRpcError {
  if (!isRecord(error)) return new StrandRpcError('RPC_INTERNAL_ERROR', -32603, 'malformed error object');
  const rpcCode = typeof error.code === 'number' ? error.code : -32603;
  const message = typeof error.message === 'string' ? error.message : 'error';
  const data = isRecord(error.data) ? error.data : {};
  const code = typeof data.code === 'string' ? data.code : (CODE_BY_RPC.get(rpcCode) ?? 'RPC_INTERNAL_ERROR');
  return new StrandRpcError(currentCodeName(code), rpcCode, message, data);
}

/**
 * A renamed code's current name; any other code unchanged. Clients accept the old names for one
 * minor version after a rename (CHANGELOG "(was …)"), so an app switching on the new name works
 * against a host that has not been upgraded yet.
 */
export function currentCodeName(code: string): string {
  return RENAMED_ERROR_CODES.get(code) ?? code;
}

export function decodeIncoming(data: unknown): IncomingMessage {
  if (typeof data !== 'string') return { kind: 'invalid', reason: 'not a text frame' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    return { kind: 'invalid', reason: 'not JSON' };
  }
  if (!isRecord(parsed) || parsed.jsonrpc !== '2.0')
    return { kind: 'invalid', reason: 'not a JSON-RPC 2.0 message' };
  if (typeof parsed.method === 'string' && parsed.id === undefined) {
    return { kind: 'notification', method: parsed.method, params: parsed.params };
  }
  if (Object.hasOwn(parsed, 'error')) {
    if (parsed.id !== null && !isId(parsed.id))
      return { kind: 'invalid', reason: 'error response without a usable id' };
    return { kind: 'error', id: parsed.id, error: toRpcError(parsed.error) };
  }
  if (Object.hasOwn(parsed, 'result') && isId(parsed.id))
    return { kind: 'result', id: parsed.id, result: parsed.result };
  return { kind: 'invalid', reason: 'neither a response nor a notification' };
}
