import type { ConnectionState, IncomingNotification } from '../connection/strand-connection.js';
import type { RpcCaller } from '../connection/rpc-caller.js';

/** What a follower needs from a connection; `StrandConnection` is one, a scripted fake is another. */
export interface FollowTransport extends RpcCaller {
  readonly state: ConnectionState;
  /** Counts opened sockets; follow ids and generations are scoped to one. */
  readonly epoch: number;
  onNotification(listener: (notification: IncomingNotification) => void): () => void;
  onStateChange(listener: (state: ConnectionState) => void): () => void;
}
