import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { wireError } from '../errors.js';
import { staticFiles } from '../static-files.js';
import { checkPageRequest } from './access.js';
import type { AccessPolicy } from './origin-check.js';
import { movePageTokenToCookie } from './page-token.js';
import { refuseRequest } from './refusal.js';
import type { RefusalListener } from './refusal-log.js';
import type { TokenGate, TokenVerdict } from './token-gate.js';

export interface HttpRoutesOptions {
  readonly policy: AccessPolicy;
  readonly gate: TokenGate;
  /** A built web UI folder; without one, pages are 404. */
  readonly webRoot: string | undefined;
  readonly connections: () => number;
  readonly onRefused: RefusalListener | undefined;
  /** `/mcp` (after its own access checks); absent: `/mcp` is 404, never the web page. */
  readonly mcp?: ((request: IncomingMessage, response: ServerResponse) => Promise<void>) | undefined;
}

/** What `GET /auth` answers: whether this browser may connect, so the page can say why not. */
export interface AuthStatus {
  readonly required: boolean;
  readonly status: TokenVerdict['kind'];
  readonly retryAfterMs?: number;
}

/** `/health`, `/auth`, `/mcp`, the token-to-cookie redirect, and the web UI's files. */
export function httpRoutes(options: HttpRoutesOptions): RequestListener {
  const files = options.webRoot === undefined ? undefined : staticFiles(options.webRoot);
  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const { pathname } = new URL(request.url ?? '/', 'http://host');
    // The MCP endpoint reads sessions: it is checked as `/rpc` is, not as a page.
    if (pathname === '/mcp') {
      if (options.mcp === undefined)
        refuseRequest(response, 404, wireError('RPC_METHOD_NOT_FOUND', 'this host serves no MCP endpoint'));
      else await options.mcp(request, response);
      return;
    }
    const access = checkPageRequest(options.policy, request);
    if (access.kind === 'refused') {
      options.onRefused?.(access.refusal);
      refuseRequest(response, access.refusal.status, access.error, access.headers);
      return;
    }
    if (pathname === '/health') {
      response
        .writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' })
        .end(JSON.stringify({ ok: true, connections: options.connections() }));
      return;
    }
    if (pathname === '/auth') {
      const verdict = await options.gate.check(request);
      const body: AuthStatus = {
        required: options.gate.required,
        status: verdict.kind,
        ...(verdict.kind === 'rate-limited' ? { retryAfterMs: verdict.retryAfterMs } : {}),
      };
      response
        .writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' })
        .end(JSON.stringify(body));
      return;
    }
    if (options.gate.required && movePageTokenToCookie(request, response, options.gate.cookieName)) return;
    if (files === undefined) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('no web UI configured');
      return;
    }
    files(request, response);
  };
  return (request, response) => {
    handle(request, response).catch(() => {
      // The answer may already be half written; all that is left is to end it.
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  };
}
