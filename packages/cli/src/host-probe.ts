import { WebSocket } from 'ws';

/** What one WebSocket upgrade to a host's `/rpc` got. */
export type HostProbe =
  | { readonly kind: 'open' }
  | { readonly kind: 'refused'; readonly status: number }
  | { readonly kind: 'failed'; readonly reason: string };

/**
 * Bounds the opening handshake: a black-holed address (a firewall dropping packets) never
 * refuses, and a client connection would wait on it without end.
 */
export const PROBE_TIMEOUT_MS = 5_000;

/**
 * One WebSocket upgrade, closed at once: opened, refused with an HTTP status (401: the token), or
 * failed (nothing listening, a timeout). Read commands ask before connecting, because a client
 * connection retries a refusing or vanished host forever.
 */
export function probeHost(rpcUrl: string, token: string | undefined): Promise<HostProbe> {
  return new Promise((resolve) => {
    const url = new URL(rpcUrl);
    if (token !== undefined) url.searchParams.set('token', token);
    const socket = new WebSocket(url, { handshakeTimeout: PROBE_TIMEOUT_MS });
    socket.on('open', () => {
      socket.close();
      resolve({ kind: 'open' });
    });
    socket.on('unexpected-response', (_request, response) => {
      resolve({ kind: 'refused', status: response.statusCode ?? 0 });
      socket.terminate();
    });
    socket.on('error', (error) => resolve({ kind: 'failed', reason: error.message }));
  });
}
