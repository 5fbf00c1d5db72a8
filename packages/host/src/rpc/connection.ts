import { wireError } from '../errors.js';
import type { FollowHub } from '../follow/follow-hub.js';
import type { Outbound } from '../follow/outbound.js';
import type { ListChangeFeed } from '../list/list-changes.js';
import type { ConnectionAccess } from '../share/share-gate.js';
import type { ShareService } from '../share/share-service.js';
import type { HostLimits, ServedServices } from '../services.js';
import { errorReply, handleFrame, type ConnectionContext } from './dispatch.js';
import { readRequestId } from './request-id.js';

/** What every connection of one host shares. */
export interface ConnectionBase {
  readonly services: ServedServices;
  readonly hub: FollowHub;
  readonly lists: ListChangeFeed;
  readonly limits: HostLimits;
  readonly shares: ShareService;
  readonly now: () => number;
}

/** One client's connection, as its transport drives it. */
export interface ServedConnection {
  /** A frame from the client (`isBinary`: a binary WebSocket frame, which is refused). */
  receive(bytes: Buffer, isBinary: boolean): void;
  /** The transport closed: the connection's calls are aborted, its follows and subscriptions dropped. */
  closed(): void;
}

/**
 * JSON-RPC over one connection, whatever carries it (a `ws` WebSocket at `/rpc`, or the in-process
 * pair of `inProcessHost`): the frame checks, the in-flight limit, one `handleFrame` per request
 * and the reply. A refused frame is not parsed, but its id is read (`readRequestId`, a bounded
 * scan) so the refusal reaches the call that sent it; a frame without a readable id is answered
 * `id: null`.
 */
export function serveConnection(
  base: ConnectionBase,
  out: Outbound,
  access: ConnectionAccess,
): ServedConnection {
  const { services, limits } = base;
  const controller = new AbortController();
  const ctx: ConnectionContext = { ...base, out, signal: controller.signal, access };
  let inFlight = 0;
  return {
    receive(bytes, isBinary) {
      const refuse = (error: ReturnType<typeof wireError>): void => {
        out.send(errorReply(readRequestId(bytes), error).text);
      };
      if (isBinary) {
        refuse(wireError('RPC_INVALID_REQUEST', 'binary frames are not accepted'));
        return;
      }
      if (bytes.byteLength > limits.maxFrameBytes) {
        refuse(
          wireError(
            'HOST_FRAME_TOO_LARGE',
            `frame of ${bytes.byteLength} bytes exceeds ${limits.maxFrameBytes}`,
          ),
        );
        return;
      }
      if (inFlight >= limits.maxInFlight) {
        refuse(wireError('HOST_TOO_MANY_REQUESTS', `more than ${limits.maxInFlight} requests in flight`));
        return;
      }
      inFlight++;
      handleFrame(ctx, bytes.toString('utf8'))
        .then((reply) => {
          if (!out.open) return;
          out.send(reply.text, (error) => {
            if (error === undefined || error === null) reply.afterSend?.();
          });
        })
        .catch((error: unknown) => services.logger.error('a reply failed', { error }))
        .finally(() => inFlight--);
    },
    closed() {
      controller.abort();
      base.hub.dropConnection(out);
      base.lists.dropConnection(out);
    },
  };
}
