import type { MethodName, ParamsOf, ResultOf } from '@strand/protocol';

/** Anything that can make a typed Strand call (a `StrandConnection`, or a fake in tests). */
export interface RpcCaller {
  call<M extends MethodName>(method: M, params: ParamsOf<M>): Promise<ResultOf<M>>;
}
