// Bundles the `strand` CLI to plain JavaScript in packages/cli/dist, so the command starts without
// a TypeScript loader (run by the root `prepare` step on every install, and by `npm run build:cli`).
// The layout and what stays external: ./bundle-cli.mjs.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleCli } from './bundle-cli.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
await bundleCli({ outdir: path.join(root, 'dist'), layout: 'repository' });
