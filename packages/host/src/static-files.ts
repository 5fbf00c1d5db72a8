import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import sirv from 'sirv';

/**
 * The web UI's own routes (`/sessions/<encodeURIComponent(id)>`, optionally `?seq=N`, and
 * `/usage`): always the page, never a file, so an id that happens to name a file (or `..`) cannot
 * reach the disk.
 */
export function isPageRoute(pathname: string): boolean {
  return (
    pathname === '/sessions' ||
    pathname.startsWith('/sessions/') ||
    pathname === '/usage' ||
    pathname === '/share'
  );
}

const PAGE = '/index.html';

/** Serves one built web folder's files. */
export type StaticFiles = (request: IncomingMessage, response: ServerResponse) => void;

// sirv names only HTML's charset (without the space); the UI's text files are all UTF-8.
const TEXT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/**
 * A built web folder served by `sirv`: the files it holds when the host starts (it lists them
 * once, so no request path can name anything else — `..` included), with ETags; the UI's routes
 * and unknown extensionless paths get index.html (a single-page app). A malformed %-escape is 400.
 */
export function staticFiles(root: string): StaticFiles {
  const serve = sirv(root, {
    single: true,
    etag: true,
    setHeaders(response, pathname) {
      // Only the page is served for a path without an extension (the single-page fallback).
      const extension = path.extname(pathname) || '.html';
      const type = TEXT_TYPES[extension];
      if (type !== undefined) response.setHeader('content-type', type);
      // The page names its hashed assets: a cached copy would load a previous build's bundle.
      if (extension === '.html') response.setHeader('cache-control', 'no-cache');
    },
  });
  return (request, response) => {
    const url = new URL(request.url ?? '/', 'http://host');
    if (isPageRoute(url.pathname)) request.url = PAGE;
    else {
      try {
        decodeURIComponent(url.pathname);
      } catch {
        response.writeHead(400, { 'content-type': 'text/plain' }).end('malformed path');
        return;
      }
    }
    serve(request, response, () => {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    });
  };
}
