/**
 * The part of a WebSocket the connection uses. Both the browser `WebSocket` and the `ws` package's
 * client satisfy it, so the connection takes the constructor by injection and imports neither.
 * Handlers use the method-bivariance form so implementations with richer event types still fit.
 */
type Handler<E> = { bivarianceHack(event: E): void }['bivarianceHack'];

export interface WebSocketLike {
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: Handler<unknown> | null;
  onmessage: Handler<{ readonly data: unknown }> | null;
  onclose: Handler<{ readonly code: number; readonly reason: string }> | null;
  onerror: Handler<unknown> | null;
}

export type WebSocketConstructor = new (url: string) => WebSocketLike;
