import type { MethodName, ParamsOf, ResultOf } from '@strand/protocol';

/**
 * What the tools read through: typed calls of the host's wire methods. A `StrandConnection`
 * (`strand mcp` on stdio) is one; on the host it is the host's own dispatch, in process, so an
 * answer is cut where every `/rpc` answer is (the durable cut).
 */
export interface WireCaller {
  call<M extends MethodName>(method: M, params: ParamsOf<M>): Promise<ResultOf<M>>;
}

/** How a tool reads: `fn` runs against one caller (on stdio, one host connection per tool call). */
export type StrandReader = <T>(fn: (caller: WireCaller) => Promise<T>) => Promise<T>;
