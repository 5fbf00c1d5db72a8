import type { IncomingMessage, ServerResponse } from 'node:http';
import { stringifySetCookie } from 'cookie';

/** How long a browser keeps the token cookie: a month of `strand serve` sessions without the link. */
const COOKIE_MAX_AGE_S = 30 * 24 * 3600;

/**
 * A page load with `?token=` on a host that requires one: the token moves into an HttpOnly,
 * SameSite=Strict cookie and the browser is sent (303) to the same URL without it, so the token
 * never stays in the address bar, the history, a bookmark or a Referer, and page scripts never
 * see it. The token is not checked here: every connection checks the cookie (counted by the
 * token gate), and `/auth` tells the page whether it is right. Returns whether it answered.
 */
export function movePageTokenToCookie(
  request: IncomingMessage,
  response: ServerResponse,
  cookieName: string,
): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const url = new URL(request.url ?? '/', 'http://host');
  const token = url.searchParams.get('token');
  if (token === null) return false;
  url.searchParams.delete('token');
  const cookie = stringifySetCookie(cookieName, token, {
    httpOnly: true,
    sameSite: 'strict',
    path: '/',
    maxAge: COOKIE_MAX_AGE_S,
  });
  response
    .writeHead(303, {
      location: url.pathname + url.search,
      'set-cookie': cookie,
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
    })
    .end();
  return true;
}
