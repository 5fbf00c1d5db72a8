import type { IncomingMessage, ServerResponse } from 'node:http';
import { wireError } from '../errors.js';
import type { McpCaller, McpPort } from '../ports.js';
import type { ShareGrant } from '../share/grant-store.js';
import { checkUpgrade } from './access.js';
import type { AccessPolicy } from './origin-check.js';
import { refuseRequest } from './refusal.js';
import type { RefusalListener } from './refusal-log.js';
import type { TokenGate } from './token-gate.js';

export interface McpRouteOptions {
  readonly policy: AccessPolicy;
  readonly gate: TokenGate;
  readonly onRefused: RefusalListener | undefined;
  readonly port: McpPort;
  /** The host's address, for the tools' absolute session addresses. */
  readonly address: string;
  /** A caller of the host's read methods for one request, closed when the request ends. */
  readonly caller: (signal: AbortSignal, grant: ShareGrant | undefined) => McpCaller & { close(): void };
  /** Requests in flight per remote address (`/rpc`'s per-connection limit, `maxInFlight`). */
  readonly inFlight: InFlightByAddress;
}

/**
 * Counts `/mcp` requests in flight per remote address. An MCP client has no connection to count
 * on (each tool call is a request of its own, possibly on a new socket), so the limit a `/rpc`
 * connection has on its requests applies to the address instead: one client cannot queue
 * unbounded reads on the host.
 */
export class InFlightByAddress {
  readonly #counts = new Map<string, number>();
  constructor(readonly limit: number) {}

  /** Takes a slot for `address`, or answers false when it already has `limit` in flight. */
  enter(address: string): boolean {
    const count = this.#counts.get(address) ?? 0;
    if (count >= this.limit) return false;
    this.#counts.set(address, count + 1);
    return true;
  }

  leave(address: string): void {
    const count = (this.#counts.get(address) ?? 1) - 1;
    if (count <= 0) this.#counts.delete(address);
    else this.#counts.set(address, count);
  }
}

/**
 * `/mcp`: the same checks as an upgrade to `/rpc` (`checkUpgrade`: Host on loopback, then Origin,
 * then the token — it reads the same data), refused the same way (the typed error as JSON), then
 * the MCP port answers with the host's read methods in process.
 */
export async function mcpRoute(
  options: McpRouteOptions,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const access = await checkUpgrade(options.policy, options.gate, request);
  if (access.kind === 'refused') {
    options.onRefused?.({ ...access.refusal, upgrade: false });
    refuseRequest(response, access.refusal.status, access.error, access.headers);
    return;
  }
  const address = request.socket.remoteAddress ?? '?';
  if (!options.inFlight.enter(address)) {
    refuseRequest(
      response,
      429,
      wireError('HOST_TOO_MANY_REQUESTS', `more than ${options.inFlight.limit} /mcp requests in flight`),
    );
    return;
  }
  const aborted = new AbortController();
  response.once('close', () => aborted.abort());
  // A share token reads through /mcp exactly what it may read through /rpc: its grant.
  const caller = options.caller(aborted.signal, access.grant);
  try {
    await options.port.handle(request, response, { caller, address: options.address });
  } finally {
    caller.close();
    options.inFlight.leave(address);
  }
}
