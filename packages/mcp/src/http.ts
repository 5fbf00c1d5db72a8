import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { WireCaller } from './reader.js';
import { createStrandMcpServer, type StrandMcpOptions } from './server.js';

/** Largest `/mcp` request body read (tool arguments are small; a bigger body is refused unread). */
export const MAX_MCP_BODY_BYTES = 1024 * 1024;

/** What the host hands each `/mcp` request: its own methods in process and its address. */
export interface McpRequestContext {
  readonly caller: WireCaller;
  /** The host's address (`http://127.0.0.1:4400`), for the hits' absolute addresses. */
  readonly address: string;
}

/**
 * `/mcp` on the host: the MCP streamable HTTP transport (the SDK's), stateless — each POST gets
 * its own server and transport, answered as JSON, so no MCP session outlives its request and a
 * host restart loses nothing a client holds. A GET (the optional server-to-client stream) or a
 * DELETE (ending a session) is refused 405 here, as the specification allows: these tools never
 * notify, and a stream nobody writes would only hold a connection open. The request has already passed the
 * host's token, Origin and Host checks; the tools read through `caller` (the host's dispatch).
 */
export function mcpHttpHandler(options: Omit<StrandMcpOptions, 'address'>): {
  handle(request: IncomingMessage, response: ServerResponse, context: McpRequestContext): Promise<void>;
} {
  return {
    async handle(request, response, context) {
      if (request.method !== 'POST') {
        refuse(
          response,
          405,
          ErrorCode.ConnectionClosed,
          'only POST: this server is stateless and sends no stream',
          {
            allow: 'POST',
          },
        );
        return;
      }
      const body = await readJsonBody(request, response);
      if (body.kind === 'refused') return;
      const server = createStrandMcpServer((fn) => fn(context.caller), {
        ...options,
        address: context.address,
      });
      // No `sessionIdGenerator`: stateless (the SDK's option is absent rather than undefined).
      const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true });
      response.once('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(request, response, body.value);
    },
  };
}

type Body = { readonly kind: 'read'; readonly value: unknown } | { readonly kind: 'refused' };

/** The POST body as JSON, at most `MAX_MCP_BODY_BYTES`; a refusal is answered here as JSON-RPC. */
async function readJsonBody(request: IncomingMessage, response: ServerResponse): Promise<Body> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.byteLength;
    if (size > MAX_MCP_BODY_BYTES) {
      refuse(response, 413, ErrorCode.InvalidRequest, `request body exceeds ${MAX_MCP_BODY_BYTES} bytes`);
      request.destroy();
      return { kind: 'refused' };
    }
    chunks.push(chunk);
  }
  try {
    return { kind: 'read', value: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown };
  } catch {
    refuse(response, 400, ErrorCode.ParseError, 'the request body is not JSON');
    return { kind: 'refused' };
  }
}

function refuse(
  response: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  response
    .writeHead(status, { 'content-type': 'application/json', ...headers })
    .end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } }));
}
