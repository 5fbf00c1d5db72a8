/**
 * Vitest global setup: bundles the CLI once per test run, so every test that spawns `strand`
 * runs exactly what a user's install runs (`bin/strand.js` → `dist/`), built from the sources
 * under test rather than left over from the last install.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  execFileSync(process.execPath, [fileURLToPath(new URL('../../scripts/bundle.mjs', import.meta.url))], {
    stdio: 'inherit',
  });
}
