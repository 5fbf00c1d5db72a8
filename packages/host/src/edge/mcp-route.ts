import type { IncomingMessage, ServerResponse } from 'node:http';
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
  const aborted = new AbortController();
  response.once('close', () => aborted.abort());
  // A share token reads through /mcp exactly what it may read through /rpc: its grant.
  const caller = options.caller(aborted.signal, access.grant);
  try {
    await options.port.handle(request, response, { caller, address: options.address });
  } finally {
    caller.close();
  }
}
