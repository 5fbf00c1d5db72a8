/** JSON-RPC 2.0 envelopes as Strand uses them over one WebSocket (`/rpc`). */
export type RpcId = number | string;

export interface RpcRequest<M extends string = string, P = unknown> {
  readonly jsonrpc: '2.0';
  readonly id: RpcId;
  readonly method: M;
  readonly params?: P;
}

export interface RpcNotification<M extends string = string, P = unknown> {
  readonly jsonrpc: '2.0';
  readonly method: M;
  readonly params: P;
}

/** `data.code` is the owning package's stable string code; `code` is the integer from `ERROR_TABLE`. */
export interface RpcErrorObject {
  readonly code: number;
  readonly message: string;
  readonly data: { readonly code: string; readonly [key: string]: unknown };
}

export type RpcResponse<R = unknown> =
  | { readonly jsonrpc: '2.0'; readonly id: RpcId; readonly result: R }
  | { readonly jsonrpc: '2.0'; readonly id: RpcId | null; readonly error: RpcErrorObject };
