/** Types of inflate-worker.mjs (plain JavaScript so that it can run as a worker under any loader). */
export interface InflateGroupRequest {
  readonly id: number;
  readonly data: Uint8Array;
  readonly frames: readonly { readonly len: number; readonly count: number }[];
}

export interface InflateGroupReply {
  readonly id: number;
  readonly text: string | null;
  readonly done: number;
  readonly error: { readonly index: number; readonly message: string } | null;
}

export function inflateGroup(request: InflateGroupRequest): InflateGroupReply;

/** The `workerData` key that makes the module listen (it is also imported as a plain module). */
export const INFLATE_WORKER: string;
