import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { checkUpgrade } from './access.js';
import type { AccessPolicy } from './origin-check.js';
import { refuseUpgrade } from './refusal.js';
import type { RefusalListener } from './refusal-log.js';
import type { TokenGate } from './token-gate.js';
import type { ShareGrant } from '../share/grant-store.js';

export interface UpgradeOptions {
  readonly policy: AccessPolicy;
  readonly gate: TokenGate;
  readonly onRefused: RefusalListener | undefined;
  /** Completes an allowed upgrade to `/rpc` (the WebSocket server's `handleUpgrade`). */
  readonly accept: (
    request: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    grant: ShareGrant | undefined,
  ) => void;
}

/** The HTTP upgrade of `/rpc`: everything checked before a WebSocket exists. */
export function upgradeHandler(
  options: UpgradeOptions,
): (request: IncomingMessage, socket: Duplex, head: Buffer) => void {
  return (request, socket, head) => {
    // Until ws takes the socket over nobody listens for its errors, and an unheard socket error
    // would take the whole process down; a reset mid-check only loses this one request.
    socket.on('error', () => socket.destroy());
    const { pathname } = new URL(request.url ?? '/', 'http://host');
    if (pathname !== '/rpc') {
      socket.end('HTTP/1.1 404 Not Found\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    checkUpgrade(options.policy, options.gate, request)
      .then((decision) => {
        if (socket.destroyed) return;
        if (decision.kind === 'allowed') {
          options.accept(request, socket, head, decision.grant);
          return;
        }
        options.onRefused?.(decision.refusal);
        refuseUpgrade(socket, decision.refusal.status, decision.error, decision.headers);
      })
      .catch(() => socket.destroy());
  };
}
