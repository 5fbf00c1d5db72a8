import type { Socket } from 'node:net';
import { wireError } from '../errors.js';
import { refuseUpgrade } from './refusal.js';

export interface ConnectionGateOptions {
  /** Open TCP connections (pages, `/health`, WebSockets, and sockets that sent nothing yet). */
  readonly maxConnections: number;
  /** Open TCP connections from one remote address. */
  readonly maxConnectionsPerAddress: number;
  /** How long a new connection may take to send a whole first request (an upgrade: to be accepted). */
  readonly handshakeTimeoutMs: number;
}

/**
 * Counts every TCP connection from the server's `connection` event — before a byte is read, so
 * sockets that never send a request count too — and refuses one past either cap at once: an
 * HTTP 503 whose body is `HOST_TOO_MANY_CONNECTIONS` (`data.limit`: `total` or `address`), then
 * the socket is destroyed. An admitted socket that has not sent a complete first request (or, for
 * `/rpc`, been upgraded) within `handshakeTimeoutMs` is destroyed, so idle or slow sockets cannot
 * hold the caps.
 */
export class ConnectionGate {
  readonly #options: ConnectionGateOptions;
  readonly #perAddress = new Map<string, number>();
  readonly #handshakes = new Map<Socket, NodeJS.Timeout>();
  #open = 0;

  constructor(options: ConnectionGateOptions) {
    this.#options = options;
  }

  /** Open connections this gate admitted. */
  get open(): number {
    return this.#open;
  }

  /** The server's `connection` listener. */
  readonly admit = (socket: Socket): void => {
    const address = normalizeAddress(socket.remoteAddress);
    const fromAddress = this.#perAddress.get(address) ?? 0;
    const refused =
      this.#open >= this.#options.maxConnections
        ? `${this.#options.maxConnections} connections are open`
        : fromAddress >= this.#options.maxConnectionsPerAddress
          ? `${this.#options.maxConnectionsPerAddress} connections are open from ${address}`
          : undefined;
    if (refused !== undefined) {
      const limit = this.#open >= this.#options.maxConnections ? 'total' : 'address';
      socket.once('finish', () => socket.destroy());
      refuseUpgrade(socket, 503, wireError('HOST_TOO_MANY_CONNECTIONS', refused, { limit }));
      return;
    }
    this.#open++;
    this.#perAddress.set(address, fromAddress + 1);
    const timer = setTimeout(() => {
      this.#handshakes.delete(socket);
      socket.destroy();
    }, this.#options.handshakeTimeoutMs);
    timer.unref();
    this.#handshakes.set(socket, timer);
    socket.once('close', () => {
      this.settled(socket);
      this.#open--;
      const left = (this.#perAddress.get(address) ?? 1) - 1;
      if (left === 0) this.#perAddress.delete(address);
      else this.#perAddress.set(address, left);
    });
  };

  /** The socket sent a whole request (or was upgraded): the handshake timeout no longer applies. */
  settled(socket: Socket): void {
    const timer = this.#handshakes.get(socket);
    if (timer === undefined) return;
    clearTimeout(timer);
    this.#handshakes.delete(socket);
  }

  /** Stops every pending handshake timer (the host is closing). */
  close(): void {
    for (const timer of this.#handshakes.values()) clearTimeout(timer);
    this.#handshakes.clear();
  }
}

/** An IPv4 peer of a dual-stack socket (`::ffff:127.0.0.1`) counts as its IPv4 address. */
function normalizeAddress(address: string | undefined): string {
  if (address === undefined) return 'unknown';
  return address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
}
