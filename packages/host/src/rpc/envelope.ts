import type { RpcId } from '@strand/protocol';
import { wireError } from '../errors.js';
import type { RpcErrorObject } from '@strand/protocol';

export type ParsedFrame =
  | { readonly kind: 'request'; readonly id: RpcId; readonly method: string; readonly params: unknown }
  | { readonly kind: 'invalid'; readonly id: RpcId | null; readonly error: RpcErrorObject };

/** Parses one text frame as a JSON-RPC 2.0 request. Batches and notifications from clients are refused. */
export function parseFrame(text: string): ParsedFrame {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { kind: 'invalid', id: null, error: wireError('RPC_PARSE_ERROR', 'frame is not valid JSON') };
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return {
      kind: 'invalid',
      id: null,
      error: wireError('RPC_INVALID_REQUEST', 'expected one JSON-RPC 2.0 request object'),
    };
  }
  const r = raw as Record<string, unknown>;
  const id = typeof r.id === 'string' || (typeof r.id === 'number' && Number.isFinite(r.id)) ? r.id : null;
  if (r.jsonrpc !== '2.0' || typeof r.method !== 'string' || id === null) {
    return {
      kind: 'invalid',
      id,
      error: wireError('RPC_INVALID_REQUEST', 'a request needs jsonrpc "2.0", a method and an id'),
    };
  }
  // Absent params mean none; `null` is a value, refused by the method's schema like any other
  // non-object (JSON-RPC 2.0 §4.2: params, when present, are an object or an array).
  return { kind: 'request', id, method: r.method, params: r.params === undefined ? {} : r.params };
}
