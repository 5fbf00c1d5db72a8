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
  redirectWithCookie(response, cookieName, token, url.pathname + url.search);
  return true;
}

/** Sets an HttpOnly, SameSite=Strict cookie and sends the browser on (303), keeping no copy anywhere. */
function redirectWithCookie(response: ServerResponse, name: string, value: string, location: string): void {
  const cookie = stringifySetCookie(name, value, {
    httpOnly: true,
    sameSite: 'strict',
    path: '/',
    maxAge: COOKIE_MAX_AGE_S,
  });
  response
    .writeHead(303, {
      location,
      'set-cookie': cookie,
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
    })
    .end();
}

/** The page a share link lands on once its token is in the share cookie (the web UI's shared view). */
export const SHARED_PAGE = '/share';

/**
 * `GET /share/<shareToken>`: the share token moves into its own cookie (`shareCookieName`,
 * HttpOnly, SameSite=Strict; the host token's cookie is untouched) and the browser is sent (303)
 * to `/share`, so the token leaves the address bar as a `?token=` does. Not checked here: the
 * page asks `/auth`, which answers `share` (with the session), `expired` or `revoked`. Returns
 * whether it answered.
 */
export function moveShareTokenToCookie(
  request: IncomingMessage,
  response: ServerResponse,
  cookieName: string,
): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const { pathname } = new URL(request.url ?? '/', 'http://host');
  const match = /^\/share\/([A-Za-z0-9_-]{1,200})$/.exec(pathname);
  if (match === null) return false;
  redirectWithCookie(response, cookieName, match[1]!, SHARED_PAGE);
  return true;
}
