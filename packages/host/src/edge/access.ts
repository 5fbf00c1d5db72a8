import type { IncomingMessage } from 'node:http';
import { wireError } from '../errors.js';
import type { RpcErrorObject } from '@strand/protocol';
import { checkHostHeader, checkOrigin, type AccessPolicy } from './origin-check.js';
import type { TokenGate } from './token-gate.js';
import type { Refusal } from './refusal-log.js';
import type { ShareGrant } from '../share/grant-store.js';

export type AccessDecision =
  /** `grant`: the connection presented a live share token and may read only what it grants. */
  | { readonly kind: 'allowed'; readonly grant?: ShareGrant }
  | {
      readonly kind: 'refused';
      readonly refusal: Refusal;
      readonly error: RpcErrorObject;
      readonly headers: Readonly<Record<string, string>>;
    };

const ALLOWED: AccessDecision = { kind: 'allowed' };

function refused(
  request: IncomingMessage,
  upgrade: boolean,
  status: Refusal['status'],
  code: Refusal['code'],
  reason: string,
  data: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): AccessDecision {
  return {
    kind: 'refused',
    refusal: { status, code, reason, address: request.socket.remoteAddress, upgrade },
    error: wireError(code, reason, data),
    headers,
  };
}

/** A page or `/auth` request: only the rebinding check (pages hold no session data). */
export function checkPageRequest(policy: AccessPolicy, request: IncomingMessage): AccessDecision {
  const host = checkHostHeader(policy, request.headers.host);
  return host.kind === 'allowed'
    ? ALLOWED
    : refused(request, false, 403, 'HOST_ORIGIN_FORBIDDEN', host.reason);
}

/** An upgrade to `/rpc`: Host (on loopback), then Origin, then the token — in that order, so a foreign page never reaches the token check (and cannot spend the address's attempts). */
export async function checkUpgrade(
  policy: AccessPolicy,
  gate: TokenGate,
  request: IncomingMessage,
): Promise<AccessDecision> {
  const host = checkHostHeader(policy, request.headers.host);
  if (host.kind === 'refused') return refused(request, true, 403, 'HOST_ORIGIN_FORBIDDEN', host.reason);
  const origin = checkOrigin(policy, request.headers.origin);
  if (origin.kind === 'refused') return refused(request, true, 403, 'HOST_ORIGIN_FORBIDDEN', origin.reason);
  const token = await gate.check(request);
  switch (token.kind) {
    case 'ok':
      return ALLOWED;
    case 'share':
      return { kind: 'allowed', grant: token.grant };
    case 'expired':
      return refused(request, true, 401, 'HOST_SHARE_EXPIRED', 'the share link has expired');
    case 'revoked':
      return refused(request, true, 401, 'HOST_SHARE_REVOKED', 'the share link was revoked');
    case 'missing':
      return refused(request, true, 401, 'HOST_UNAUTHORIZED', 'a token is required');
    case 'invalid':
      return refused(request, true, 401, 'HOST_UNAUTHORIZED', 'the token is wrong');
    case 'unavailable':
      return refused(
        request,
        true,
        503,
        'HOST_SHARE_STORE_FAILED',
        'the share grants could not be read; try again',
        {},
        { 'retry-after': '1' },
      );
    case 'rate-limited':
      return refused(
        request,
        true,
        429,
        'HOST_AUTH_RATE_LIMITED',
        'too many failed token attempts from this address',
        { retryAfterMs: token.retryAfterMs },
        { 'retry-after': String(Math.ceil(token.retryAfterMs / 1000)) },
      );
    default: {
      const exhaustive: never = token;
      throw new Error(`unhandled token verdict ${String(exhaustive)}`);
    }
  }
}
