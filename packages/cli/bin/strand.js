#!/usr/bin/env node
// Runs the bundled CLI (packages/cli/dist, built by `prepare` on every install) in this process:
// no TypeScript loader and no child process at start-up. It used to spawn `node --import tsx`
// on the sources so that `npx strand` needed no build step; the install step now is that build.
// A checkout without the bundle (installed with --ignore-scripts) still runs, from the sources
// through tsx's in-process loader, slowly.
import { existsSync } from 'node:fs';
import { URL } from 'node:url';

const bundle = new URL('../dist/main.js', import.meta.url);
if (existsSync(bundle)) {
  await import(bundle.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('../src/main.ts', import.meta.url).href);
}
