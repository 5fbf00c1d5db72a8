import { StrandRpcError, type MethodName, type ParamsOf, type ResultOf } from '@strand/protocol';
import { wireError } from '../errors.js';
import type { ConnectionAccess } from '../share/share-gate.js';
import type { Outbound } from '../follow/outbound.js';
import type { McpCaller } from '../ports.js';
import type { ConnectionBase } from './connection.js';
import { errorReply, handleFrame, type ConnectionContext } from './dispatch.js';

/**
 * The methods an in-process reader (`/mcp`'s tools) may call: reads only. A prompt, a command or
 * an interactive follow (which may start an agent) is refused `RPC_METHOD_NOT_FOUND`, whatever
 * the tools ask: reading never starts anything.
 */
const READS: ReadonlySet<MethodName> = new Set<MethodName>([
  'session.list',
  'session.search',
  'session.follow',
  'session.unfollow',
  'session.page',
  'subagent.list',
  'usage.summary',
]);

/** Follows opened in process get no frames: the reader takes the snapshot and unfollows. */
const NOWHERE: Outbound = { bufferedAmount: 0, open: false, send: () => undefined };

/**
 * The host's own methods, called in process for one `/mcp` request: each call goes through
 * `handleFrame` exactly as a `/rpc` frame does — the same params schemas, id checks, handlers and
 * error mapping — so an answer is cut where every wire answer is (the durable cut) and a failure
 * carries the same stable code (`StrandRpcError`, as a `StrandConnection` call rejects). `signal`
 * ends with the HTTP request; `close` drops any follow left open.
 */
export function localCaller(
  base: ConnectionBase,
  signal: AbortSignal,
  access: ConnectionAccess,
): McpCaller & { close(): void } {
  // One outbound per request, so closing it drops only this request's follows.
  const out: Outbound = { ...NOWHERE };
  const ctx: ConnectionContext = { ...base, out, signal, access };
  let nextId = 1;
  return {
    async call<M extends MethodName>(method: M, params: ParamsOf<M>): Promise<ResultOf<M>> {
      const id = nextId++;
      const reply = READS.has(method)
        ? method === 'session.follow' && (params as { interactive?: boolean }).interactive === true
          ? errorReply(
              id,
              wireError('RPC_INVALID_PARAMS', 'an in-process reader never follows interactively'),
            )
          : await handleFrame(ctx, JSON.stringify({ jsonrpc: '2.0', id, method, params }))
        : errorReply(id, wireError('RPC_METHOD_NOT_FOUND', `${method} is not a read`));
      // A follow's frames start after its snapshot is "sent"; nothing is sent here, but the hub
      // must see the follow opened so the unfollow that comes next finds it settled.
      reply.afterSend?.();
      const parsed = JSON.parse(reply.text) as {
        result?: unknown;
        error?: { code: number; message: string; data?: Record<string, unknown> };
      };
      if (parsed.error !== undefined) {
        const data = parsed.error.data ?? {};
        throw new StrandRpcError(String(data.code), parsed.error.code, parsed.error.message, data);
      }
      return parsed.result as ResultOf<M>;
    },
    close: () => {
      base.hub.dropConnection(out);
      base.lists.dropConnection(out);
    },
  };
}
