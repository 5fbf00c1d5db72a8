// esbuild settings shared by the two builds of the TypeScript sources: the `strand` CLI bundle
// (packages/cli/scripts/bundle.mjs) and the library packages' dist/ (scripts/build/pack-libraries.mjs).
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Node 20, ESM, linked source maps. */
export const nodeEsm = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  logLevel: 'warning',
};

/**
 * Worker threads started by a module of a package, by the file name their launcher resolves
 * beside itself (`new URL(name, import.meta.url)`), mapped to their TypeScript entry. A build puts
 * each beside the chunks that launch it.
 */
export const WORKER_ENTRIES = {
  persistence: {
    'worker-entry.mjs': path.join(
      repoRoot,
      'packages',
      'persistence',
      'src',
      'jsonl',
      'scan-worker',
      'worker-main.ts',
    ),
  },
};
