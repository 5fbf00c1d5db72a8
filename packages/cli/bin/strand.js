#!/usr/bin/env node
// Runs the TypeScript CLI through tsx's loader, so `npx strand` needs no build step. The loader is
// resolved from here, not from the working folder: a harness starts `strand mcp` in any project.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const main = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'src', 'main.ts');
const result = spawnSync(
  process.execPath,
  ['--import', import.meta.resolve('tsx'), main, ...process.argv.slice(2)],
  {
    stdio: 'inherit',
  },
);
process.exit(result.status ?? 1);
