import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The built web UI. An installed @strand/cli carries it in its own `web/` (`npm run pack:cli`); in
 * this repository it is `packages/web/dist`, built by the install step. Found from this package's
 * root, not from this file: the code runs from `src/` (sources through tsx) or from a chunk of the
 * bundle in `dist/`, at different depths.
 */
export function webRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  const packaged = path.join(dir, 'web');
  if (existsSync(path.join(packaged, 'index.html'))) return packaged;
  return path.resolve(dir, '..', 'web', 'dist');
}
