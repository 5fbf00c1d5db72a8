import { createReadStream, promises as fsp } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

/**
 * The web UI's own routes (`/sessions/<encodeURIComponent(id)>`, optionally `?seq=N`): always the
 * page, never a file, so an id that happens to name a file (or `..`) cannot reach the disk.
 */
export function isPageRoute(pathname: string): boolean {
  return pathname === '/sessions' || pathname.startsWith('/sessions/');
}

/**
 * Serves a built web folder: the UI's routes and unknown paths get index.html (a single-page app),
 * anything else the file it names. Never leaves `root`; a malformed %-escape is 400, not a 500.
 */
export async function serveStatic(
  root: string,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://host');
  let file = path.join(root, 'index.html');
  if (!isPageRoute(url.pathname)) {
    let pathname: string;
    try {
      pathname = decodeURIComponent(url.pathname);
    } catch {
      response.writeHead(400, { 'content-type': 'text/plain' }).end('malformed path');
      return;
    }
    file = path.resolve(root, '.' + pathname);
    if (file !== root && !file.startsWith(root + path.sep)) {
      response.writeHead(403).end();
      return;
    }
  }
  let stat = await fsp.stat(file).catch(() => undefined);
  if (stat === undefined || stat.isDirectory()) {
    file = path.join(root, 'index.html');
    stat = await fsp.stat(file).catch(() => undefined);
  }
  if (stat === undefined) {
    response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    return;
  }
  const page = file === path.join(root, 'index.html');
  response.writeHead(200, {
    'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
    'content-length': stat.size,
    // The page names its hashed assets: a cached copy would load a previous build's bundle.
    ...(page ? { 'cache-control': 'no-cache' } : {}),
  });
  createReadStream(file).pipe(response);
}
