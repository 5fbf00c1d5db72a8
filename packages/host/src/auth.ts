import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { parseCookie } from 'cookie';

/**
 * The cookie a browser carries the token in once a `?token=` link moved it there
 * (`edge/page-token.ts`). Cookies are scoped to a host name, not a port, so the name carries the
 * port: two Strand hosts on one machine keep their own tokens instead of overwriting each other.
 */
export function tokenCookieName(port: number): string {
  return `strand_token_${port}`;
}

/**
 * The cookie a `/share/<token>` link moves its share token into: its own name, so the host
 * token's cookie is untouched (a browser holding both acts as the host token).
 */
export function shareCookieName(port: number): string {
  return `strand_share_${port}`;
}

/** The shortest token a host accepts where one is required: guessing it must not be practical. */
export const MIN_TOKEN_LENGTH = 16;

/** Loopback means only this machine can connect: the one binding that needs no token. */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * The token a request presented, first found of: `Authorization: Bearer …` (the scheme is
 * case-insensitive, RFC 7235 §2.1); `?token=…` (clients that cannot set headers on a WebSocket,
 * such as `StrandConnection` in a browser); the token cookie (a browser, after its first
 * `?token=` page load moved the token there).
 */
export function presentedToken(request: IncomingMessage, cookieName: string): string | undefined {
  const header = request.headers.authorization;
  if (typeof header === 'string') {
    const match = /^bearer +(\S+) *$/i.exec(header);
    if (match !== null) return match[1];
  }
  // An explicit token beats the cookie: a page that passes one knows better than an old cookie.
  const query = new URL(request.url ?? '/', 'http://host').searchParams.get('token');
  if (query !== null && query !== '') return query;
  const cookie = request.headers.cookie;
  if (typeof cookie !== 'string') return undefined;
  const value = parseCookie(cookie)[cookieName];
  return value === undefined || value === '' ? undefined : value;
}

export function tokenMatches(expected: string, presented: string | undefined): boolean {
  if (presented === undefined) return false;
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(presented, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}
